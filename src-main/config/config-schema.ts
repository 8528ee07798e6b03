import { z } from 'zod';
import { comboInputSchema } from '../../src-shared/domain/combo';
import { CONNECTION_KINDS, connectionInputSchema, type ConnectionDraft } from '../../src-shared/domain/connection';

/**
 * A connection as a person writes it in the config file: secrets as flat fields, the Claude
 * opt-ins as top-level booleans. Converted to the contract's ConnectionDraft before use.
 */
const configConnectionSchema = z
  .object({
    name: z.string(),
    kind: z.enum(CONNECTION_KINDS),
    baseUrl: z.string().optional(),
    apiKey: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    expiresAt: z.number().int().nonnegative().optional(),
    models: z.array(z.string()).optional(),
    modelAliases: z.record(z.string(), z.string()).optional(),
    priority: z.number().optional(),
    enabled: z.boolean().optional(),
    maxConcurrent: z.number().nullable().optional(),
    disableCooling: z.boolean().optional(),
    lowPriorityMode: z.boolean().optional(),
    autoLimitReset: z.boolean().optional(),
    organizationUUID: z.string().optional(),
    providerSpecificData: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const configKeySchema = z.object({ name: z.string().trim().min(1).max(64), key: z.string().min(12, 'is at least 12 characters') }).strict();

/** The file's outline; each entry is then checked on its own so every problem is reported at once. */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    connections: z.array(z.unknown()).default([]),
    keys: z.array(z.unknown()).default([]),
    combos: z.array(z.unknown()).default([]),
  })
  .loose();

export const CONFIG_ROOT_KEYS = new Set(['$schema', 'connections', 'keys', 'combos']);

export { configConnectionSchema, configKeySchema };
export const configComboSchema = comboInputSchema;

export type ConfigConnection = z.infer<typeof configConnectionSchema>;

/** Flat config fields → the draft the repository stores (validated by the contract's own schema). */
export function toConnectionInput(c: ConfigConnection): unknown {
  const psd: Record<string, unknown> = { ...(c.providerSpecificData ?? {}) };
  if (c.lowPriorityMode !== undefined) psd.lowPriorityMode = c.lowPriorityMode;
  if (c.autoLimitReset !== undefined) psd.autoLimitReset = c.autoLimitReset;
  if (c.organizationUUID !== undefined) psd.organizationUUID = c.organizationUUID;
  const secret =
    c.kind === 'claude-oauth'
      ? c.accessToken === undefined
        ? undefined
        : { type: 'oauth', accessToken: c.accessToken, refreshToken: c.refreshToken, expiresAt: c.expiresAt }
      : c.apiKey === undefined
        ? undefined
        : { type: 'api-key', apiKey: c.apiKey };
  return {
    name: c.name,
    kind: c.kind,
    baseUrl: c.baseUrl ?? null,
    secret,
    models: c.models,
    modelAliases: c.modelAliases,
    priority: c.priority,
    enabled: c.enabled,
    maxConcurrent: c.maxConcurrent,
    disableCooling: c.disableCooling,
    providerSpecificData: psd,
  };
}

export function parseConnectionInput(value: unknown) {
  return connectionInputSchema.safeParse(value) as z.ZodSafeParseResult<ConnectionDraft>;
}
