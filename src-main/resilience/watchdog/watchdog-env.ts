import type { StreamRecoveryPatch, ThroughputWatchdogPatch } from '../../../src-shared/domain/resilience-watchdog';
import type { EnvSource } from '../breaker/setting-overrides';

const PREFIX = 'STREAM_THROUGHPUT_WATCHDOG_';

/** A number variable clamped into its range (WATCH-5: −1 → the floor); unset or non-numeric → left out. */
function readClamped(env: EnvSource, name: string, min: number, max: number): number | undefined {
  const raw = env[PREFIX + name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Math.floor(Number(raw));
  if (!Number.isFinite(value)) return undefined;
  return Math.min(max, Math.max(min, value));
}

/**
 * WATCH-5: `STREAM_THROUGHPUT_WATCHDOG_ENABLED=true` switches the watchdog on; `…_WARMUP_MS`,
 * `…_WINDOW_MS`, `…_MIN_BYTES_PER_SECOND`, `…_MIN_USEFUL_BYTES` tune it. The streamRecovery base
 * layer: a stored value wins over it.
 */
export function streamRecoveryFromEnv(env: EnvSource): StreamRecoveryPatch {
  const patch: ThroughputWatchdogPatch = {};
  const enabled = env[`${PREFIX}ENABLED`]?.trim().toLowerCase();
  if (enabled === 'true' || enabled === '1') patch.enabled = true;
  else if (enabled === 'false' || enabled === '0') patch.enabled = false;
  const warmupMs = readClamped(env, 'WARMUP_MS', 0, 600_000);
  const windowMs = readClamped(env, 'WINDOW_MS', 1_000, 600_000);
  const rate = readClamped(env, 'MIN_BYTES_PER_SECOND', 1, 1_000_000);
  const bytes = readClamped(env, 'MIN_USEFUL_BYTES', 1, 1_000_000);
  if (warmupMs !== undefined) patch.warmupMs = warmupMs;
  if (windowMs !== undefined) patch.windowMs = windowMs;
  if (rate !== undefined) patch.minUsefulBytesPerSecond = rate;
  if (bytes !== undefined) patch.minUsefulBytes = bytes;
  return Object.keys(patch).length === 0 ? {} : { throughputWatchdog: patch };
}
