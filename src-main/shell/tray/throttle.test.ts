import { describe, expect, it } from 'vitest';
import { manualClock } from '../shell-fixtures.testkit';
import { createThrottle } from './throttle';

describe('createThrottle', () => {
  it('PROD-4: runs at once, then coalesces a burst into one trailing run per interval', () => {
    const clock = manualClock();
    let runs = 0;
    const throttle = createThrottle(() => runs++, 1_000, clock);
    throttle.request();
    expect(runs).toBe(1);
    for (let i = 0; i < 50; i++) throttle.request();
    expect(runs).toBe(1);
    clock.advance(999);
    expect(runs).toBe(1);
    clock.advance(1);
    expect(runs).toBe(2);
    clock.advance(5_000);
    expect(runs).toBe(2);
    throttle.request();
    expect(runs).toBe(3);
  });

  it('PROD-4: cancel drops the pending trailing run', () => {
    const clock = manualClock();
    let runs = 0;
    const throttle = createThrottle(() => runs++, 1_000, clock);
    throttle.request();
    throttle.request();
    throttle.cancel();
    clock.advance(2_000);
    expect(runs).toBe(1);
    expect(clock.pending()).toBe(0);
  });
});
