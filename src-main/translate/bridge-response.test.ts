import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Bridge, Hop } from './bridges';
import { bridgeResponse } from './bridge-response';

/** A hop that upper-cases text: enough to see order, composition and the stream mechanics. */
function upperHop(tag: string): Hop {
  return {
    request: (body) => ({ ok: true, body, dropped: [] }),
    response: (body, context) => ({
      ...body,
      via: [...(Array.isArray(body.via) ? body.via : []), tag],
      seen: context.request,
    }),
    stream: () => {
      let count = 0;
      return {
        push: (event, data) => [{ event: event === null ? tag : `${event}+${tag}`, data: data.toUpperCase() }],
        end: () => [{ event: `end-${tag}`, data: String(++count) }],
      };
    },
  };
}

const bridge = (hops: Hop[]): Bridge => ({
  label: 'anthropic->openai',
  operation: 'chat_completions',
  upstreamWire: 'openai',
  hops,
});
const context = { clientModel: 'm', idSeed: 'x' };

function answer(chunks: string[], contentType: string) {
  return {
    statusCode: 200,
    headers: { 'content-type': contentType, 'content-length': '99' },
    body: Readable.from(chunks.map((c) => Buffer.from(c))),
  };
}

async function text(body: Readable): Promise<string> {
  let out = '';
  for await (const chunk of body) out += String(chunk);
  return out;
}

describe('bridgeResponse', () => {
  it('translates a stream event by event through every hop, upstream side first, and fixes the headers', async () => {
    const out = bridgeResponse(
      answer(['data: a\n', '\ndata: b\n\n'], 'text/event-stream'),
      bridge([upperHop('h1'), upperHop('h2')]),
      [{}, {}],
      context,
    );
    expect(out.headers['content-length']).toBeUndefined();
    expect(out.headers['content-type']).toContain('text/event-stream');
    // h2 reads the upstream, h1 writes the client's events; h1 also translates h2's closing event.
    expect(await text(out.body)).toBe(
      'event: h2+h1\ndata: A\n\nevent: h2+h1\ndata: B\n\nevent: end-h2+h1\ndata: 1\n\nevent: end-h1\ndata: 1\n\n',
    );
  });

  it('translates a JSON answer whole, giving each hop the client-side request it answers', async () => {
    const out = bridgeResponse(
      answer(['{"a":', '1}'], 'application/json'),
      bridge([upperHop('h1'), upperHop('h2')]),
      [{ r: 0 }, { r: 1 }],
      context,
    );
    const body: unknown = JSON.parse(await text(out.body));
    expect(body).toEqual({ a: 1, via: ['h2', 'h1'], seen: { r: 0 } });
  });

  it('ends with an error (never a truncated answer) when the upstream JSON does not parse', async () => {
    const out = bridgeResponse(answer(['{"a":'], 'application/json'), bridge([upperHop('h1')]), [{}], context);
    await expect(text(out.body)).rejects.toThrow(/not a JSON object/);
  });

  it('destroying the translated body destroys the upstream body (the upstream request is cancelled)', async () => {
    const source = new Readable({ read() {} });
    const out = bridgeResponse(
      { statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body: source },
      bridge([upperHop('h1')]),
      [{}],
      context,
    );
    out.body.resume();
    out.body.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.destroyed).toBe(true);
  });

  it('passes the upstream error object on unchanged (a body timeout stays a timeout)', async () => {
    const source = new Readable({ read() {} });
    const out = bridgeResponse(
      { statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body: source },
      bridge([upperHop('h1')]),
      [{}],
      context,
    );
    const failure = new Error('body timeout');
    const seen = new Promise<unknown>((resolve) => out.body.on('error', resolve));
    out.body.resume();
    source.destroy(failure);
    expect(await seen).toBe(failure);
  });

  it('holds the upstream while the translated side is not read (backpressure)', async () => {
    const source = new Readable({ read() {} });
    const out = bridgeResponse(
      { statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body: source },
      bridge([upperHop('h1')]),
      [{}],
      context,
    );
    const big = `data: ${'x'.repeat(64 * 1024)}\n\n`;
    for (let i = 0; i < 4; i++) source.push(Buffer.from(big));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(true);
    out.body.resume();
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).toBe(false);
    source.destroy();
  });
});
