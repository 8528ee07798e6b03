/** How many recent queue waits each connection keeps for its p50/p95 (a ring: old samples fall out). */
export const WAIT_WINDOW_SIZE = 200;
/** Samples older than this do not count: the dashboard shows the recent queue, not the morning's. */
export const WAIT_WINDOW_MS = 5 * 60_000;

/** One connection's recent waits: parallel rings of wait length and when it ended. */
export interface WaitWindow {
  waits: number[];
  at: number[];
  next: number;
}

export const emptyWaitWindow = (): WaitWindow => ({ waits: [], at: [], next: 0 });

/** Records one wait in place (the ring is the connection's own, mutated on the hot path to stay allocation-free). */
export function recordWait(window: WaitWindow, waitedMs: number, now: number): void {
  if (window.waits.length < WAIT_WINDOW_SIZE) {
    window.waits.push(waitedMs);
    window.at.push(now);
    return;
  }
  window.waits[window.next] = waitedMs;
  window.at[window.next] = now;
  window.next = (window.next + 1) % WAIT_WINDOW_SIZE;
}

/** p50 and p95 (nearest rank) of the waits within WAIT_WINDOW_MS of `now`; null when there are none. */
export function waitPercentiles(window: WaitWindow, now: number): { p50: number; p95: number; samples: number } | null {
  const recent: number[] = [];
  for (let i = 0; i < window.waits.length; i++) {
    const at = window.at[i] ?? 0;
    const wait = window.waits[i];
    if (wait !== undefined && now - at <= WAIT_WINDOW_MS) recent.push(wait);
  }
  if (recent.length === 0) return null;
  recent.sort((a, b) => a - b);
  const rank = (p: number) => recent[Math.max(0, Math.ceil(p * recent.length) - 1)] ?? 0;
  return { p50: rank(0.5), p95: rank(0.95), samples: recent.length };
}
