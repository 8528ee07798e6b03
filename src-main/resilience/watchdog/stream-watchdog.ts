import type { ThroughputWatchdogSettings } from '../../../src-shared/domain/resilience-watchdog';
import { createSseReader } from '../../kernel/sse/sse-reader';
import { createThroughputMeter, type WatchdogDecision } from './throughput-meter';
import { createProgressClock } from './progress-idle';
import { usefulOutputOf, type UsefulOutput } from './useful-output';

const NOTHING: UsefulOutput = { bytes: 0, protectedPhase: false };

/** An event past this counts as nothing (it is skipped, not held): the watchdog never holds a stream. */
const EVENT_CAP = 256 * 1024;

/** Reads one SSE attempt's bytes as they pass and says when it is too slow (WATCH-1). */
export interface StreamWatchdog {
  /** Feeds one upstream chunk seen at `now`; an `abort` means cut this attempt. */
  push(chunk: Uint8Array, now: number): WatchdogDecision;
}

/**
 * The watchdog for one SSE attempt, or null when it is off: the caller then does no per-chunk
 * work at all (WATCH-5). Events are read by the SSE reader, so a character split between reads is whole.
 * `idleMs` (the upstream idle timeout, WATCH-2): also cut a stream whose only bytes for that long
 * were heartbeats or metadata (see `progress-idle.ts`); null leaves idleness to undici alone.
 */
export function createStreamWatchdog(
  settings: ThroughputWatchdogSettings,
  idleMs: number | null = null,
): StreamWatchdog | null {
  if (!settings.enabled) return null;
  const reader = createSseReader({ cap: EVENT_CAP, overCap: 'skip' });
  const meter = createThroughputMeter(settings);
  const clock = idleMs === null ? null : createProgressClock(idleMs);
  const observe = (output: UsefulOutput, now: number) => {
    meter.observe(output, now);
    clock?.observe(output, now);
  };
  return {
    push(chunk, now) {
      // The proxy's reads are Buffers already; a plain byte array is viewed as one, not copied.
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const events = reader.push(bytes);
      // A chunk is an observation even without a whole event: the warm-up starts at the first byte.
      if (events.length === 0) observe(NOTHING, now);
      for (const e of events) observe(usefulOutputOf(e.event, e.data), now);
      const idle = clock?.idleFor(now) ?? null;
      if (idle !== null) return { kind: 'abort', reason: 'no_progress', bytesPerSecond: 0, windowMs: idle };
      return meter.check(now);
    },
  };
}

/** A watchdog with its clock bound by the caller: what the proxy's byte path holds per attempt. */
export type ChunkWatch = (chunk: Uint8Array) => WatchdogDecision;
