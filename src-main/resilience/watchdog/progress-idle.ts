import type { UsefulOutput } from './useful-output';

/**
 * WATCH-2's idle rule: the upstream idle timeout (`upstreamIdleTimeoutMs`) is undici's bodyTimeout,
 * which any byte resets — an SSE comment or a `ping` every few seconds keeps a stream that writes
 * nothing alive forever. With the watchdog on, this clock measures the time since the last
 * *progress*: text, or a tool-call/reasoning event (real output, just not text). Heartbeats,
 * metadata and usage events never reset it. Clock-free: every call takes `now`; it is judged when a
 * chunk arrives (complete silence is still undici's bodyTimeout, whose value is the same).
 */
export interface ProgressClock {
  observe(output: UsefulOutput, now: number): void;
  /** Milliseconds without progress at `now` when that reaches the limit, else null. */
  idleFor(now: number): number | null;
}

export function createProgressClock(idleMs: number): ProgressClock {
  let lastProgressAt: number | null = null;
  return {
    observe(output, now) {
      // The first byte starts the clock: before it, the headers and body timeouts govern.
      if (lastProgressAt === null || output.bytes > 0 || output.protectedPhase) lastProgressAt = now;
    },
    idleFor(now) {
      if (lastProgressAt === null) return null;
      const idle = now - lastProgressAt;
      return idle >= idleMs ? idle : null;
    },
  };
}
