import { z } from 'zod';

const warmupMs = z.number().int().min(0).max(600_000);
const windowMs = z.number().int().min(1_000).max(600_000);
const positive = z.number().int().min(1).max(1_000_000);

/**
 * WATCH-1/5: the slow-stream throughput watchdog. Off by default; once on, an attempt whose useful
 * output stays under `minUsefulBytesPerSecond` over one full `windowMs` after `warmupMs` is cut.
 * `minUsefulBytes`: a window holding some output but less than this is too little to judge.
 */
export const throughputWatchdogSchema = z
  .object({
    enabled: z.boolean().default(false),
    warmupMs: warmupMs.default(30_000),
    windowMs: windowMs.default(30_000),
    minUsefulBytesPerSecond: positive.default(4),
    minUsefulBytes: positive.default(1),
  })
  .strict();
export type ThroughputWatchdogSettings = z.infer<typeof throughputWatchdogSchema>;

// Without defaults, so a patch of one field does not store the others and shadow their env values.
export const throughputWatchdogPatchSchema = z
  .object({ enabled: z.boolean(), warmupMs, windowMs, minUsefulBytesPerSecond: positive, minUsefulBytes: positive })
  .partial()
  .strict();
export type ThroughputWatchdogPatch = z.infer<typeof throughputWatchdogPatchSchema>;

/** `resilienceSettings.streamRecovery` (WATCH-1): the stream guards; only the watchdog so far. */
export const streamRecoverySchema = z
  .object({ throughputWatchdog: throughputWatchdogSchema.default(throughputWatchdogSchema.parse({})) })
  .strict();
export type StreamRecoverySettings = z.infer<typeof streamRecoverySchema>;

export const streamRecoveryPatchSchema = z
  .object({ throughputWatchdog: throughputWatchdogPatchSchema })
  .partial()
  .strict();
export type StreamRecoveryPatch = z.infer<typeof streamRecoveryPatchSchema>;
