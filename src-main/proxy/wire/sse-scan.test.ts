import { describe, expect, it } from 'vitest';
import { createLastEventKeeper } from './last-event';
import { createEventSpotter, eventsOf, firstEventOf, statusOfErrorEvent, streamEndOf, type SseEvent } from './sse-scan';
import { summarizeUpstreamText } from '../relay/upstream-text';

describe('spotting the first SSE event', () => {
  it('PROD-16: an event split across chunks counts only once its blank line arrives', () => {
    const spot = createEventSpotter();
    expect(spot.push('event: message_start\nda')).toBe(false);
    expect(spot.push('ta: {"type":"message_start"}\n')).toBe(false);
    expect(spot.push('\n')).toBe(true);
  });

  it('PROD-16: comments and CRLF padding before the first event do not commit the answer', () => {
    const spot = createEventSpotter();
    expect(spot.push(': OPENROUTER PROCESSING\r\n\r\n: still\n\n')).toBe(false);
    expect(spot.push('data: {"id":"x"}\r\n\r\n')).toBe(true);
  });
});

describe('the first event of a held start', () => {
  it('PROD-16: firstEventOf reads the first event as eventsOf does, whatever follows it', () => {
    const samples = [
      ': comment\n\nevent: message_start\ndata: {"a":1}\n\nevent: ping\ndata: {}\n\n',
      '\r\n\r\nevent: error\r\ndata: {"type":"error"}\r\n\r\ndata: x\n\n',
      'event: lonely\n\ndata: one\ndata: two\n\n',
      'data: unterminated',
      'event: only\n\n: nothing dispatchable\n',
      '',
    ];
    for (const text of samples) expect(firstEventOf(text), JSON.stringify(text)).toEqual(eventsOf(text)[0]);
  });
});

/** The last event of a whole stream, as the relay reads it. */
function lastEventOf(text: string): SseEvent | null {
  const keeper = createLastEventKeeper();
  keeper.push(Buffer.from(text));
  return keeper.last();
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
