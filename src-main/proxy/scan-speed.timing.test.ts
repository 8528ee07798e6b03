import { describe, expect, it } from 'vitest';
import { anthropicStreamFrames, cutBytes as cut, hugeDataLine } from '../testing/sse-frames';
import { summarizeUpstreamText } from './relay/upstream-text';
import { createUsageTap, type Usage } from './wire/usage-tap';

// Wall-clock guards against a scan going quadratic. They run alone (TIMING=1, one file at a time),
// so a loaded machine's other test files cannot push them over their limits.

const SSE = 'text/event-stream';

const usageFrames = () =>
  Buffer.from(
    anthropicStreamFrames({
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      deltas: ['x'],
      inputTokens: 17,
      outputTokens: 42,
    }).join(''),
  );
const USAGE: Usage = { inputTokens: 17, outputTokens: 42, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe('scans stay linear (timed, run alone)', () => {
  it('ISSUE-8: a 32 MB SSE line in 16 KiB pieces passes the usage tap fast, no piece stalling the loop', () => {
    const huge = hugeDataLine(32 * 1024 * 1024);
    const tap = createUsageTap(SSE);
    let slowest = 0;
    const started = performance.now();
    for (const piece of cut(huge, 16 * 1024)) {
      const t = performance.now();
      tap.onChunk(piece);
      slowest = Math.max(slowest, performance.now() - t);
    }
    const elapsed = performance.now() - started;
    tap.onChunk(usageFrames());
    expect(tap.finish()).toEqual(USAGE);
    expect(elapsed).toBeLessThan(500);
    expect(slowest).toBeLessThan(20);
  });

  it('PROD-16: a 4 MB comment line costs the usage tap well under 250 ms', () => {
    const bytes = Buffer.concat([Buffer.alloc(4 * 1024 * 1024, ':'), Buffer.from('\n'), usageFrames()]);
    const tap = createUsageTap(SSE);
    const started = performance.now();
    for (const piece of cut(bytes, 1000)) tap.onChunk(piece);
    expect(tap.finish()).toEqual(USAGE);
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('PROD-17: hostile markup (many unclosed tags) is summarised in linear time', () => {
    const started = performance.now();
    summarizeUpstreamText('<script'.repeat(40_000) + '<a'.repeat(100_000), 'text/html');
    expect(performance.now() - started).toBeLessThan(200);
  });
});
