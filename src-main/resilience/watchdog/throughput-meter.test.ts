import { describe, expect, it } from 'vitest';
import { throughputWatchdogSchema } from '../../../src-shared/domain/resilience-watchdog';
import { createThroughputMeter } from './throughput-meter';
import { usefulOutputOf } from './useful-output';

/** Warm-up 1 s, window 2 s, at least 2 useful bytes per second. */
const SETTINGS = throughputWatchdogSchema.parse({
  enabled: true,
  warmupMs: 1_000,
  windowMs: 2_000,
  minUsefulBytesPerSecond: 2,
});
const text = (n: number) => ({ bytes: n, protectedPhase: false });
const nothing = { bytes: 0, protectedPhase: false };
const tool = { bytes: 0, protectedPhase: true };

describe('throughput meter', () => {
  it('WATCH-3: healthy output every second never trips', () => {
    const meter = createThroughputMeter(SETTINGS);
    for (let t = 0; t <= 20_000; t += 1_000) {
      meter.observe(text(8), t);
      expect(meter.check(t).kind).toBe('ok');
    }
  });

  it('WATCH-3: slow output aborts only once warm-up plus one full window have passed (3 000, not 2 999)', () => {
    const meter = createThroughputMeter(SETTINGS);
    meter.observe(text(1), 0);
    meter.observe(nothing, 1_500);
    expect(meter.check(2_999).kind).toBe('ok');
    const decision = meter.check(3_000);
    expect(decision).toMatchObject({ kind: 'abort', reason: 'throughput_too_low', windowMs: 2_000 });
  });

  it('WATCH-2: heartbeats count nothing: a stream of pings aborts at the window boundary', () => {
    const meter = createThroughputMeter(SETTINGS);
    for (let t = 0; t < 3_000; t += 100) {
      meter.observe(usefulOutputOf('ping', '{"type":"ping"}'), t);
      expect(meter.check(t).kind).toBe('ok');
    }
    meter.observe(usefulOutputOf('ping', '{"type":"ping"}'), 3_000);
    expect(meter.check(3_000)).toMatchObject({ kind: 'abort', bytesPerSecond: 0 });
  });

  it('WATCH-4: a tool-call or reasoning phase suspends judgement until text resumes', () => {
    const meter = createThroughputMeter(SETTINGS);
    meter.observe(text(10), 0);
    meter.observe(tool, 100);
    // Long tool arguments: nothing useful for ages, but no abort.
    for (let t = 200; t <= 60_000; t += 200) meter.observe(tool, t);
    expect(meter.check(60_000).kind).toBe('ok');
    // Text resumes with a trickle: judgement is back on, the window holds 1 byte in 2 s.
    meter.observe(text(1), 60_100);
    expect(meter.check(60_100).kind).toBe('abort');
  });

  it('WATCH-3: old samples leave the window: a fast start does not cover a later stall', () => {
    const meter = createThroughputMeter(SETTINGS);
    meter.observe(nothing, 0);
    meter.observe(text(1_000), 1_500);
    expect(meter.check(3_000).kind).toBe('ok'); // the 1 000 bytes are inside (1 000, 3 000]
    expect(meter.check(3_499).kind).toBe('ok');
    expect(meter.check(3_500).kind).toBe('abort'); // and out of (1 500, 3 500]
  });

  it('WATCH-4: a window with some output below minUsefulBytes is too little to judge', () => {
    const meter = createThroughputMeter({ ...SETTINGS, minUsefulBytes: 10 });
    meter.observe(text(3), 0);
    meter.observe(text(1), 2_000);
    expect(meter.check(3_000).kind).toBe('ok');
    // With nothing at all in the window it is judged again.
    expect(meter.check(6_000).kind).toBe('abort');
  });

  it('WATCH-3: nothing observed yet → never aborts', () => {
    expect(createThroughputMeter(SETTINGS).check(1_000_000).kind).toBe('ok');
  });
});
