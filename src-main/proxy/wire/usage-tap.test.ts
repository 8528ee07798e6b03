import { describe, expect, it } from 'vitest';
import { anthropicStreamFrames, openaiStreamFrames, cutBytes as cut, hugeDataLine } from '../../testing/sse-frames';
import { createUsageTap, SSE_LINE_CAP, type Usage } from './usage-tap';

const SSE = 'text/event-stream';

function tapAll(contentType: string, pieces: readonly Buffer[]): Usage {
  const tap = createUsageTap(contentType);
  for (const piece of pieces) tap.onChunk(piece);
  return tap.finish();
}

const anthropicBytes = (deltas: string[]) =>
  Buffer.from(
    anthropicStreamFrames({ id: 'msg_1', model: 'claude-sonnet-4-5', deltas, inputTokens: 17, outputTokens: 42 }).join(
      '',
    ),
  );

const ANTHROPIC_USAGE: Usage = { inputTokens: 17, outputTokens: 42, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe('usage tap', () => {
  it('PROD-16: reads Anthropic stream usage the same whatever the chunk size', () => {
    const bytes = anthropicBytes(['Hello', ' there']);
    for (const size of [1, 2, 3, 7, 64, bytes.length]) expect(tapAll(SSE, cut(bytes, size))).toEqual(ANTHROPIC_USAGE);
    // One read per event, as a streaming upstream's writes usually arrive: small reads take the byte search.
    const events = bytes
      .toString('utf8')
      .split(/(?<=\n\n)/)
      .map((event) => Buffer.from(event));
    expect(events.every((event) => event.length <= 512)).toBe(true);
    expect(tapAll(SSE, events)).toEqual(ANTHROPIC_USAGE);
  });

  it('PROD-16: reads OpenAI stream usage, cached tokens included, split across chunks', () => {
    const frames = openaiStreamFrames({
      id: 'c1',
      model: 'gpt-4o',
      created: 1,
      deltas: ['a', 'b'],
      includeUsage: true,
      promptTokens: 9,
      completionTokens: 4,
    });
    expect(tapAll(SSE, cut(Buffer.from(frames.join('')), 5))).toEqual({
      inputTokens: 9,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: null,
    });
  });

  it('PROD-16: multi-byte characters split between chunks do not spoil the usage line they sit in', () => {
    // The usage event itself carries non-ASCII text, cut at every byte so each character is split once.
    const line = `data: ${JSON.stringify({ type: 'message_start', message: { content: 'é😀中', usage: { input_tokens: 5, output_tokens: 1 } } })}\n\n`;
    expect(tapAll(SSE, cut(Buffer.from(line), 1))).toMatchObject({ inputTokens: 5, outputTokens: 1 });
    const deltas = anthropicBytes(['héllo 😀', '中文']);
    expect(tapAll(SSE, cut(deltas, 3))).toEqual(ANTHROPIC_USAGE);
  });

  it('PROD-16: text that says usage (even quoted) is not taken for a usage event', () => {
    const bytes = anthropicBytes(['check the "usage"', ' and usage"', 'usage": {"input_tokens": 999}']);
    for (const size of [5, 64, bytes.length]) expect(tapAll(SSE, cut(bytes, size))).toEqual(ANTHROPIC_USAGE);
  });

  it('PROD-16: reads usage from CRLF-terminated events', () => {
    const bytes = Buffer.from(anthropicBytes(['x']).toString('utf8').replace(/\n/g, '\r\n'));
    expect(tapAll(SSE, cut(bytes, 4))).toEqual(ANTHROPIC_USAGE);
  });

  it('PROD-16: a usage event longer than the line cap is still read when it names usage within the cap', () => {
    const big = `data: ${JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: 3 }, content: 'x'.repeat(SSE_LINE_CAP * 2) } })}\n`;
    expect(tapAll(SSE, cut(Buffer.from(big), 16 * 1024)).inputTokens).toBe(3);
  });

  it('ISSUE-8: a 32 MB line in 16 KiB pieces is skipped with bounded memory, and later usage is still read', () => {
    const huge = hugeDataLine(32 * 1024 * 1024);
    const tap = createUsageTap(SSE);
    const heapBefore = process.memoryUsage().heapUsed;
    for (const piece of cut(huge, 16 * 1024)) tap.onChunk(piece);
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    tap.onChunk(anthropicBytes(['after']));
    expect(tap.finish()).toEqual(ANTHROPIC_USAGE);
    // The old tap kept the whole line as a string (32 MB and more); the cap keeps 64 KiB.
    // (How fast it is scanned is measured alone, in scan-speed.timing.test.ts.)
    expect(heapGrowth).toBeLessThan(8 * 1024 * 1024);
  });

  it('PROD-16: lines that are not data lines are never kept, however long', () => {
    const comment = Buffer.alloc(4 * 1024 * 1024, ':');
    const bytes = Buffer.concat([comment, Buffer.from('\n'), anthropicBytes(['x'])]);
    expect(tapAll(SSE, cut(bytes, 1000))).toEqual(ANTHROPIC_USAGE);
  });

  it('PROD-16: reads usage from a JSON body split across chunks', () => {
    const body = Buffer.from(
      JSON.stringify({
        id: 'm',
        content: [{ type: 'text', text: 'hé' }],
        usage: { input_tokens: 2, output_tokens: 3 },
      }),
    );
    expect(tapAll('application/json', cut(body, 3))).toMatchObject({ inputTokens: 2, outputTokens: 3 });
  });
});

describe('usage tap, Gemini', () => {
  const chunk = (usage: string) =>
    `data: {"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"}}],"usageMetadata":${usage}}\r\n\r\n`;

  it('ISSUE-23: reads usageMetadata of a whole Gemini body', () => {
    const body = Buffer.from(
      '{"candidates":[],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":8,"cachedContentTokenCount":20,"thoughtsTokenCount":4}}',
    );
    expect(tapAll('application/json; charset=UTF-8', [body])).toEqual({
      inputTokens: 30,
      outputTokens: 12,
      cacheReadTokens: 20,
      cacheWriteTokens: null,
    });
  });

  it('ISSUE-23: reads a Gemini stream whose every chunk carries usageMetadata: the last wins, at any chunk size', () => {
    const bytes = Buffer.from(
      chunk('{"promptTokenCount":11}') +
        chunk('{"promptTokenCount":11,"candidatesTokenCount":3}') +
        chunk('{"promptTokenCount":11,"candidatesTokenCount":9,"thoughtsTokenCount":2,"totalTokenCount":22}'),
    );
    const expected: Usage = { inputTokens: 11, outputTokens: 11, cacheReadTokens: null, cacheWriteTokens: null };
    for (const size of [1, 5, 64, bytes.length]) expect(tapAll(SSE, cut(bytes, size))).toEqual(expected);
  });
});
