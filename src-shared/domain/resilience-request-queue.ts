import { z } from 'zod';

/** QUEUE-6: both budgets are clamped to 1 ms – 24 h on merge. */
const budget = z.number().int().min(1).max(86_400_000);

/**
 * QUEUE-1..9: the per provider + connection request queue. `maxWaitMs` bounds the wait before
 * dispatch, `executionMaxWaitMs` the execution after it (independent, QUEUE-2), `maxQueueDepth` the
 * requests waiting (0 = unbounded, QUEUE-9). Env < stored < per-connection override (QUEUE-7).
 */
export const requestQueueSchema = z
  .object({
    maxWaitMs: budget.default(30_000),
    executionMaxWaitMs: budget.default(600_000),
    maxQueueDepth: z.number().int().min(0).max(100_000).default(0),
  })
  .strict();
export type RequestQueueSettings = z.infer<typeof requestQueueSchema>;
// Built without the defaults: `.partial()` of a defaulted field still fills it in (zod 4), so a patch of
// one field would store the other two as defaults and shadow their env values (QUEUE-2, QUEUE-7).
export const requestQueuePatchSchema = z
  .object({
    maxWaitMs: budget,
    executionMaxWaitMs: budget,
    maxQueueDepth: z.number().int().min(0).max(100_000),
  })
  .partial()
  .strict();
export type RequestQueuePatch = z.infer<typeof requestQueuePatchSchema>;
