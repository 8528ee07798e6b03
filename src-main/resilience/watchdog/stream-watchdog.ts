import type { ThroughputWatchdogSettings } from '../../../src-shared/domain/resilience-watchdog';
import { createSseEventSplitter } from './sse-events';
import { createThroughputMeter, type WatchdogDecision } from './throughput-meter';
import { usefulOutputOf } from './useful-output';

/** Reads one SSE attempt's bytes as they pass and says when it is too slow (WATCH-1). */
export interface StreamWatchdog {
  /** Feeds one upstream chunk seen at `now`; an `abort` means cut this attempt. */
  push(chunk: Uint8Array, now: number): WatchdogDecision;
}

/**
 * The watchdog for one SSE attempt, or null when it is off: the caller then does no per-chunk
 * work at all (WATCH-5). Text is decoded with a streaming decoder so a split character is whole.
 */
export function createStreamWatchdog(settings: ThroughputWatchdogSettings): StreamWatchdog | null {
  if (!settings.enabled) return null;
  const decoder = new TextDecoder('utf-8');
  const split = createSseEventSplitter();
  const meter = createThroughputMeter(settings);
  return {
    push(chunk, now) {
      const events = split(decoder.decode(chunk, { stream: true }));
      // A chunk is an observation even without a whole event: the warm-up starts at the first byte.
      if (events.length === 0) meter.observe({ bytes: 0, protectedPhase: false }, now);
      for (const e of events) meter.observe(usefulOutputOf(e.event, e.data), now);
      return meter.check(now);
    },
  };
}

/** A watchdog with its clock bound by the caller: what the proxy's byte path holds per attempt. */
export type ChunkWatch = (chunk: Uint8Array) => WatchdogDecision;
