import type { ThroughputWatchdogSettings } from '../../../src-shared/domain/resilience-watchdog';
import type { UsefulOutput } from './useful-output';

/**
 * The watchdog's verdict after an observation; `abort` carries the numbers a person can read.
 * `no_progress` (WATCH-2's idle rule): no text or tool/reasoning output for `windowMs` — 0 useful
 * bytes/s over that span, so the same message reads true for both reasons.
 */
export type WatchdogDecision =
  | { kind: 'ok' }
  | { kind: 'abort'; reason: 'throughput_too_low' | 'no_progress'; bytesPerSecond: number; windowMs: number };

/**
 * One attempt's useful-output meter (WATCH-3/4). Mutable on purpose (it runs per event on the hot
 * path) but clock-free: every call takes `now`.
 */
export interface ThroughputMeter {
  /** Records one event's useful output, seen at `now`. */
  observe(output: UsefulOutput, now: number): void;
  /** Judges the window ending at `now`. */
  check(now: number): WatchdogDecision;
}

const OK: WatchdogDecision = { kind: 'ok' };

export function createThroughputMeter(settings: ThroughputWatchdogSettings): ThroughputMeter {
  const { warmupMs, windowMs, minUsefulBytesPerSecond, minUsefulBytes } = settings;
  // Samples with bytes only, oldest first; `head` skips the expired ones without shifting the array.
  const at: number[] = [];
  const bytes: number[] = [];
  let head = 0;
  let windowBytes = 0;
  let firstAt: number | null = null;
  let protectedPhase = false;

  const expire = (now: number) => {
    const from = now - windowMs;
    while (head < at.length && (at[head] ?? now) <= from) {
      windowBytes -= bytes[head] ?? 0;
      head++;
    }
    if (head > 1024 && head * 2 > at.length) {
      at.splice(0, head);
      bytes.splice(0, head);
      head = 0;
    }
  };

  return {
    observe(output, now) {
      firstAt ??= now;
      if (output.bytes > 0) {
        // Useful text ends a tool or reasoning phase (WATCH-4).
        protectedPhase = false;
        at.push(now);
        bytes.push(output.bytes);
        windowBytes += output.bytes;
      } else if (output.protectedPhase) protectedPhase = true;
    },
    check(now) {
      if (firstAt === null || now - firstAt < warmupMs + windowMs) return OK; // WATCH-3
      if (protectedPhase) return OK;
      expire(now);
      if (windowBytes > 0 && windowBytes < minUsefulBytes) return OK; // too little to judge
      const bytesPerSecond = windowBytes / Math.max(1, windowMs / 1000);
      return bytesPerSecond < minUsefulBytesPerSecond
        ? { kind: 'abort', reason: 'throughput_too_low', bytesPerSecond, windowMs }
        : OK;
    },
  };
}
