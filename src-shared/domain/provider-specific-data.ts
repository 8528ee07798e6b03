import { z } from 'zod';
import { cooldownProfilePatchSchema } from './resilience-cooldown';

/**
 * A connection's per-connection resilience overrides (`providerSpecificData.resilience`): its
 * cooldown patch wins over the stored and env settings for the connection's own profile.
 */
export const connectionResilienceSchema = z
  .object({
    cooldown: cooldownProfilePatchSchema.optional(),
  })
  .strict();
export type ConnectionResilience = z.infer<typeof connectionResilienceSchema>;

/**
 * `providerSpecificData`: options of one kind of upstream and what Leeway learned about it. Known
 * keys are typed and checked on save; other keys pass through untouched (the editor keeps them), so
 * the object stays open. Rows are read back unchecked, so readers still test what they use.
 */
export const providerSpecificDataSchema = z
  .object({
    /** LOWP-1: Claude subscriptions yield to the low-priority lane near their usage limit. */
    lowPriorityMode: z.boolean().optional(),
    /** RESET-1: Claude subscriptions try the limit reset on a wall 429. */
    autoLimitReset: z.boolean().optional(),
    /** RESET-5: the organisation the reset is claimed for; learned at run time when absent. */
    organizationUUID: z.string().optional(),
    /** RESET-5: the snake_case spelling some exports use; `organizationUUID` wins. */
    organization_uuid: z.string().optional(),
    /** From Claude Code's credentials: the OAuth scopes and plan of the subscription. */
    scopes: z.array(z.string()).optional(),
    subscriptionType: z.string().nullable().optional(),
    /** Token endpoint override of a claude-oauth connection (tests, proxies in front of it). */
    oauthTokenUrl: z.string().optional(),
    /** Which config-file secret was last applied (a hash, never the secret). */
    configSecretFingerprint: z.string().optional(),
    resilience: connectionResilienceSchema.optional(),
  })
  .loose();
export type ProviderSpecificData = z.infer<typeof providerSpecificDataSchema>;
