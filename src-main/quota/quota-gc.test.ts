import { afterEach, describe, expect, it, vi } from 'vitest';
import { startQuotaGc } from '../core/lifecycle';

afterEach(() => {
  vi.useRealTimers();
});

describe('quota retention GC', () => {
  it('QENV-3: hourly, buckets older than the retention in days are collected; a failure is logged, not thrown', async () => {
    vi.useFakeTimers();
    const calls: [number, number][] = [];
    const logs: string[] = [];
    let fail = false;
    const timer = startQuotaGc(
      {
        gc: (retentionMs, now) => {
          calls.push([retentionMs, now]);
          return fail ? Promise.reject(new Error('locked')) : Promise.resolve(3);
        },
      },
      () => 14,
      () => 42,
      (l) => logs.push(l),
    );
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(3_600_000);
    expect(calls).toEqual([[14 * 86_400_000, 42]]);
    fail = true;
    vi.advanceTimersByTime(3_600_000);
    await vi.waitFor(() => expect(logs).toEqual(['[quota:factory] retention GC failed: locked']));
    expect(timer.hasRef()).toBe(false);
    clearInterval(timer);
  });
});
