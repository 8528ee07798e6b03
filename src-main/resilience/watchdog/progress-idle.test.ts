import { describe, expect, it } from 'vitest';
import { throughputWatchdogSchema } from '../../../src-shared/domain/resilience-watchdog';
import { createProgressClock } from './progress-idle';
import { createStreamWatchdog } from './stream-watchdog';

const bytes = (s: string) => new TextEncoder().encode(s);
const COMMENT = ': keep-alive\n\n';
const PING = `event: ping\ndata: ${JSON.stringify({ type: 'ping' })}\n\n`;
const USAGE = `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: {}, usage: { output_tokens: 3 } })}\n\n`;
const START = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', usage: {} } })}\n\n`;
const text = (t: string) =>
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } })}\n\n`;
const toolArgs = `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a' } })}\n\n`;
const chatEmpty = `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: '' } }] })}\n\n`;

// The throughput rule out of the way (a 10 min warm-up), so only the idle rule can cut.
const SLOW_TO_JUDGE = throughputWatchdogSchema.parse({ enabled: true, warmupMs: 600_000, windowMs: 600_000 });

describe('WATCH-2: heartbeats do not reset the idle timer (progress clock)', () => {
  it('WATCH-2: the clock starts at the first byte and only progress resets it', () => {
    const clock = createProgressClock(1_000);
    expect(clock.idleFor(5_000)).toBeNull(); // nothing seen yet: the headers/body timeouts govern
    clock.observe({ bytes: 0, protectedPhase: false }, 0);
    expect(clock.idleFor(999)).toBeNull();
    expect(clock.idleFor(1_000)).toBe(1_000);
    clock.observe({ bytes: 0, protectedPhase: false }, 900); // a heartbeat: no reset
    expect(clock.idleFor(1_000)).toBe(1_000);
    clock.observe({ bytes: 4, protectedPhase: false }, 1_100); // text
    expect(clock.idleFor(2_099)).toBeNull();
    clock.observe({ bytes: 0, protectedPhase: true }, 2_000); // a tool or reasoning event is output too
    expect(clock.idleFor(2_999)).toBeNull();
    expect(clock.idleFor(3_000)).toBe(1_000);
  });

  for (const [name, beat] of [
    ['SSE comments', COMMENT],
    ['Anthropic pings', PING],
    ['usage-only events', USAGE],
    ['empty Chat Completions deltas', chatEmpty],
  ] as const)
    it(`WATCH-2: ${name} every 200 ms after the first text do not keep a 1 s idle timer from firing`, () => {
      const watchdog = createStreamWatchdog(SLOW_TO_JUDGE, 1_000);
      expect(watchdog?.push(bytes(START + text('Hi')), 0).kind).toBe('ok');
      for (let t = 200; t < 1_000; t += 200) expect(watchdog?.push(bytes(beat), t).kind).toBe('ok');
      expect(watchdog?.push(bytes(beat), 1_000)).toEqual({
        kind: 'abort',
        reason: 'no_progress',
        bytesPerSecond: 0,
        windowMs: 1_000,
      });
    });

  it('WATCH-2: text or tool-call deltas between the heartbeats keep the stream alive', () => {
    const watchdog = createStreamWatchdog(SLOW_TO_JUDGE, 1_000);
    for (let t = 0; t <= 5_000; t += 200) {
      const chunk = t % 800 === 0 ? (t % 1_600 === 0 ? text('x') : toolArgs) : PING;
      expect(watchdog?.push(bytes(chunk), t).kind, `t=${t}`).toBe('ok');
    }
  });

  it('WATCH-2: metadata alone is no progress: message_start then only pings is cut at the idle limit', () => {
    const watchdog = createStreamWatchdog(SLOW_TO_JUDGE, 1_000);
    expect(watchdog?.push(bytes(START), 0).kind).toBe('ok');
    expect(watchdog?.push(bytes(PING), 999).kind).toBe('ok');
    expect(watchdog?.push(bytes(PING), 1_300)).toMatchObject({ kind: 'abort', reason: 'no_progress', windowMs: 1_300 });
  });

  it('WATCH-2 WATCH-5: without an idle limit only the throughput rule judges; with the watchdog off there is nothing', () => {
    const watchdog = createStreamWatchdog(SLOW_TO_JUDGE);
    for (let t = 0; t <= 60_000; t += 1_000) expect(watchdog?.push(bytes(PING), t).kind).toBe('ok');
    expect(createStreamWatchdog(throughputWatchdogSchema.parse({}), 1_000)).toBeNull();
  });

  it('WATCH-2: the two rules stay separate: heartbeats count for neither, the throughput rule still cuts first when it is shorter', () => {
    const fast = throughputWatchdogSchema.parse({ enabled: true, warmupMs: 0, windowMs: 1_000 });
    const watchdog = createStreamWatchdog(fast, 60_000);
    expect(watchdog?.push(bytes(text('Hello')), 0).kind).toBe('ok');
    for (let t = 100; t < 1_000; t += 100) expect(watchdog?.push(bytes(PING), t).kind).toBe('ok');
    expect(watchdog?.push(bytes(PING), 1_000)).toMatchObject({ kind: 'abort', reason: 'throughput_too_low' });
  });
});
