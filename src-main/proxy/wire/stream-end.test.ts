import { describe, expect, it } from 'vitest';
import { createLastEventReader, EVENT_HEAD_CAP } from '../../kernel/sse/last-event';
import { createSseReader } from '../../kernel/sse/sse-reader';
import type { SseEvent } from '../../kernel/sse/sse-lines';
import type { WireFormat } from '../../../src-shared/domain/connection';
import { createStreamEndKeeper, statusOfErrorEvent, streamEndOf } from './stream-end';
import { summarizeUpstreamText } from '../relay/upstream-text';

/** The last event of a whole stream, as the relay reads it. */
function lastEventOf(text: string): SseEvent | null {
  const reader = createLastEventReader();
  reader.push(Buffer.from(text));
  return reader.last();
}

/** Every event of a piece of a stream. */
function eventsOf(text: string): SseEvent[] {
  const reader = createSseReader();
  return [...reader.push(Buffer.from(text)), ...reader.end()];
}

/** How a stream ended, read by the relay's keeper as the reads pass. */
function keptEnd(format: WireFormat, pieces: readonly string[]) {
  const keeper = createStreamEndKeeper(format);
  for (const piece of pieces) {
    const bytes = Buffer.from(piece);
    expect(keeper.onChunk(bytes)).toBe(bytes);
  }
  expect(keeper.onEnd()).toBeNull();
  return keeper.end();
}

describe('how a stream ended', () => {
  it('PROD-17: message_stop and [DONE] are terminal; an in-band error ends a stream too', () => {
    expect(streamEndOf('anthropic', lastEventOf('event: message_stop\ndata: {"type":"message_stop"}\n\n'))).toBe(
      'terminal',
    );
    expect(streamEndOf('openai', lastEventOf('data: {"choices":[]}\n\ndata: [DONE]\n\n'))).toBe('terminal');
    expect(
      streamEndOf(
        'anthropic',
        lastEventOf('event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n'),
      ),
    ).toBe('error');
    expect(streamEndOf('openai', lastEventOf('data: {"error":{"message":"boom"}}\n\n'))).toBe('error');
  });

  it('PROD-17: a stream whose last event is a delta, or that is empty, is missing its end', () => {
    expect(
      streamEndOf('anthropic', lastEventOf('event: content_block_delta\ndata: {"type":"content_block_delta"}\n\n')),
    ).toBe('missing');
    expect(streamEndOf('openai', lastEventOf('data: {"choices":[{"delta":{"content":"[DONE]"}}]}\n\n'))).toBe(
      'missing',
    );
    expect(streamEndOf('openai', lastEventOf(''))).toBe('missing');
  });

  it('PROD-17: an event name is read without the spaces around it', () => {
    expect(streamEndOf('anthropic', lastEventOf('event:  message_stop \ndata: {}\n\n'))).toBe('terminal');
    expect(streamEndOf('responses', lastEventOf('event:response.completed\r\ndata: {}\r\n\r\n'))).toBe('terminal');
  });

  it('PROD-17: the keeper passes every read on as it came and reads the end from the last one', () => {
    expect(keptEnd('anthropic', ['event: message_start\ndata: {}\n\n', 'event: message_st', 'op\ndata: {}\n\n'])).toBe(
      'terminal',
    );
    expect(keptEnd('openai', ['data: {"choices":[]}\n\n'])).toBe('missing');
  });

  it('PROD-17: a nameless Responses event cut to its head is still told by its leading type', () => {
    const data = JSON.stringify({ type: 'response.completed', response: { output: 'x'.repeat(EVENT_HEAD_CAP * 2) } });
    const last = lastEventOf(`data: ${data}\n\n`);
    expect(last?.event).toBeNull();
    expect(streamEndOf('responses', last)).toBe('terminal');
    const delta = lastEventOf(
      `data: {"type":"response.output_text.delta","delta":"${'y'.repeat(EVENT_HEAD_CAP)}"}\n\n`,
    );
    expect(streamEndOf('responses', delta)).toBe('missing');
  });

  it('PROD-17: a terminal event far bigger than a read is read by its name, from its head alone', () => {
    const completed = `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { output: 'word '.repeat(100_000) } })}\n\n`;
    const stream = `event: response.created\ndata: {"type":"response.created"}\n\n${completed}`;
    const pieces: string[] = [];
    for (let at = 0; at < stream.length; at += 16 * 1024) pieces.push(stream.slice(at, at + 16 * 1024));
    expect(keptEnd('responses', pieces)).toBe('terminal');
  });
});

describe('an in-band error as the first event', () => {
  it('PROD-16: overloaded reads as 529, a rate limit as 429, anything else as 500', () => {
    const [overloaded] = eventsOf(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
    const [limited] = eventsOf(
      'data: {"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}\n\n',
    );
    const [other] = eventsOf('data: {"error":{"message":"boom","type":"server_error"}}\n\n');
    expect([overloaded, limited, other].map((e) => (e ? statusOfErrorEvent(e) : null))).toEqual([529, 429, 500]);
  });
});

describe('upstream error text', () => {
  it('PROD-17: an HTML page is reduced to its words, scripts and styles dropped, and cut short', () => {
    const page =
      '<!DOCTYPE html><html><head><style>body{color:red}</style><script>var a = "<b>";</script><title>502 Bad Gateway</title></head><body>Bad &amp; sad</body></html>';
    expect(summarizeUpstreamText(page, 'text/html')).toBe('502 Bad Gateway Bad & sad');
    expect(summarizeUpstreamText('x'.repeat(2_000), 'text/plain')).toHaveLength(501);
    expect(summarizeUpstreamText('  ', undefined)).toBe('(empty body)');
  });

  it('PROD-17: hostile markup (many unclosed tags) is summarised to its text', () => {
    // How fast is measured alone, in scan-speed.timing.test.ts.
    const summary = summarizeUpstreamText('<script'.repeat(40_000) + '<a'.repeat(100_000) + 'after', 'text/html');
    expect(summary.length).toBeLessThanOrEqual(501);
  });
});
