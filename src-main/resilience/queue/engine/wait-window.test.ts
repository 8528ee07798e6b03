import { describe, expect, it } from 'vitest';
import { emptyWaitWindow, recordWait, WAIT_WINDOW_MS, WAIT_WINDOW_SIZE, waitPercentiles } from './wait-window';

describe('queue wait window', () => {
  it('QUEUE-1: p50/p95 by nearest rank over the recent waits; none recorded → null', () => {
    const w = emptyWaitWindow();
    expect(waitPercentiles(w, 0)).toBeNull();
    for (let i = 1; i <= 100; i++) recordWait(w, i * 10, 1_000);
    expect(waitPercentiles(w, 1_000)).toEqual({ p50: 500, p95: 950, samples: 100 });
  });

  it('QUEUE-1: samples older than the window and beyond the ring size no longer count', () => {
    const w = emptyWaitWindow();
    recordWait(w, 9_999, 0);
    recordWait(w, 10, WAIT_WINDOW_MS + 1);
    expect(waitPercentiles(w, WAIT_WINDOW_MS + 1)).toEqual({ p50: 10, p95: 10, samples: 1 });
    for (let i = 0; i < WAIT_WINDOW_SIZE; i++) recordWait(w, 7, WAIT_WINDOW_MS + 2);
    expect(waitPercentiles(w, WAIT_WINDOW_MS + 2)).toEqual({ p50: 7, p95: 7, samples: WAIT_WINDOW_SIZE });
  });
});
