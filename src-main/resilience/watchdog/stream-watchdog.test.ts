import { describe, expect, it } from 'vitest';
import { resolveResilienceSections } from '../../../src-shared/domain/resilience-settings';
import { throughputWatchdogSchema } from '../../../src-shared/domain/resilience-watchdog';
import { resolveResilienceSettings } from '../resilience-settings';
import { createStreamWatchdog } from './stream-watchdog';
import { streamRecoveryFromEnv } from './watchdog-env';

const bytes = (s: string) => new TextEncoder().encode(s);
const ON = throughputWatchdogSchema.parse({
  enabled: true,
  warmupMs: 1_000,
  windowMs: 2_000,
  minUsefulBytesPerSecond: 3,
});
const textEvent = (text: string) =>
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`;

describe('stream watchdog over SSE bytes', () => {
  it('WATCH-5: off by default: no watchdog at all, so the byte path does no work', () => {
    expect(createStreamWatchdog(throughputWatchdogSchema.parse({}))).toBeNull();
  });

  it('WATCH-4: an event split across chunks (and inside a UTF-8 character) is counted once, whole', () => {
    const watchdog = createStreamWatchdog({ ...ON, minUsefulBytesPerSecond: 13 });
    const frame = bytes(textEvent('€€€€€€€€')); // 24 bytes of text
    const cut = frame.indexOf(0xe2) + 1; // inside the first €
    expect(watchdog?.push(bytes(': keep-alive\n\n'), 0).kind).toBe('ok');
    expect(watchdog?.push(frame.subarray(0, cut), 1_500).kind).toBe('ok');
    expect(watchdog?.push(frame.subarray(cut), 1_510).kind).toBe('ok');
    // Exactly 24 bytes over a 2 s window = 12 B/s (a chunk-by-chunk decode would see replacement characters).
    expect(watchdog?.push(bytes(': keep-alive\n\n'), 3_000)).toMatchObject({ kind: 'abort', bytesPerSecond: 12 });
  });

  it('WATCH-2: SSE comments are heartbeats: they count nothing and the stream is cut after warm-up + window', () => {
    const watchdog = createStreamWatchdog(ON);
    for (let t = 0; t < 3_000; t += 250) expect(watchdog?.push(bytes(': keep-alive\n\n'), t).kind).toBe('ok');
    expect(watchdog?.push(bytes(': keep-alive\n\n'), 3_000).kind).toBe('abort');
  });

  it('WATCH-4: Responses output_text.delta "hello" every second does not abort at 3 B/s', () => {
    const watchdog = createStreamWatchdog(ON);
    const frame = `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', delta: 'hello' })}\n\n`;
    for (let t = 0; t <= 10_000; t += 1_000) expect(watchdog?.push(bytes(frame), t).kind).toBe('ok');
  });
});

describe('watchdog settings', () => {
  it('WATCH-5: default disabled, with the reference bounds', () => {
    const r = resolveResilienceSections({});
    expect(r.ok && r.value.streamRecovery.throughputWatchdog).toEqual({
      enabled: false,
      warmupMs: 30_000,
      windowMs: 30_000,
      minUsefulBytesPerSecond: 4,
      minUsefulBytes: 1,
    });
  });

  it('WATCH-5, QENV-4: STREAM_THROUGHPUT_WATCHDOG_ENABLED=true enables it; env numbers are clamped into range', () => {
    const env = {
      STREAM_THROUGHPUT_WATCHDOG_ENABLED: 'true',
      STREAM_THROUGHPUT_WATCHDOG_WARMUP_MS: '-1',
      STREAM_THROUGHPUT_WATCHDOG_WINDOW_MS: '10',
      STREAM_THROUGHPUT_WATCHDOG_MIN_BYTES_PER_SECOND: '0',
      STREAM_THROUGHPUT_WATCHDOG_MIN_USEFUL_BYTES: '0',
    };
    expect(streamRecoveryFromEnv(env)).toEqual({
      throughputWatchdog: {
        enabled: true,
        warmupMs: 0,
        windowMs: 1_000,
        minUsefulBytesPerSecond: 1,
        minUsefulBytes: 1,
      },
    });
    const r = resolveResilienceSettings({}, env);
    expect(r.ok && r.value.streamRecovery.throughputWatchdog.enabled).toBe(true);
  });

  it('WATCH-5: a stored value wins over the env; an out-of-range stored value is refused with its path', () => {
    const env = { STREAM_THROUGHPUT_WATCHDOG_ENABLED: 'true', STREAM_THROUGHPUT_WATCHDOG_WINDOW_MS: '5000' };
    const r = resolveResilienceSettings({ streamRecovery: { throughputWatchdog: { enabled: false } } }, env);
    expect(r.ok && r.value.streamRecovery.throughputWatchdog).toMatchObject({ enabled: false, windowMs: 5_000 });
    const bad = resolveResilienceSettings({ streamRecovery: { throughputWatchdog: { windowMs: 10 } } }, {});
    expect(bad.ok ? [] : bad.issues.map((i) => i.path)).toEqual(['streamRecovery.throughputWatchdog.windowMs']);
  });
});
