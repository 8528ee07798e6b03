import { z } from 'zod';

/**
 * CONC-7..9: a request that would end in a 429/503 only because every target is in a SHORT
 * transient cooldown waits for the earliest one and is dispatched again, within these bounds.
 */
export const comboCooldownWaitSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** The longest single cooldown still worth waiting for; a longer one fails at once. */
    maxWaitMs: z.number().int().min(100).max(600_000).default(90_000),
    /** Waits per request before the refusal is given. */
    maxAttempts: z.number().int().min(1).max(20).default(5),
    /** Total time a request may spend waiting, all waits together. */
    budgetMs: z.number().int().min(100).max(1_800_000).default(300_000),
  })
  .strict();
export type ComboCooldownWaitSettings = z.infer<typeof comboCooldownWaitSchema>;
// Without defaults: `.partial()` of a defaulted field still fills it in (zod 4), and a stored patch of one
// field must not pin the others.
export const comboCooldownWaitPatchSchema = z
  .object({
    enabled: z.boolean(),
    maxWaitMs: comboCooldownWaitSchema.shape.maxWaitMs.unwrap(),
    maxAttempts: comboCooldownWaitSchema.shape.maxAttempts.unwrap(),
    budgetMs: comboCooldownWaitSchema.shape.budgetMs.unwrap(),
  })
  .partial()
  .strict();
