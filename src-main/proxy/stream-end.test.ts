import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startLeeway, type RunningLeeway } from '../testing/start-leeway';

// How a relayed stream's end is judged when its last event is big or split oddly across reads.
// The upstream is raw node:http so each write (and the pause between them) is under the test's control.

let leeway: RunningLeeway | null = null;
let server: Server | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upstream that answers every POST with `pieces`, written one by one with a pause between. */
async function upstreamWriting(pieces: readonly string[]): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      void (async () => {
        for (const piece of pieces) {
          res.write(piece);
          await pause(25);
        }
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function throughLeeway(
  pieces: readonly string[],
  path: '/v1/responses' | '/v1/messages',
): Promise<{ text: string; errorCode: string | null }> {
  const url = await upstreamWriting(pieces);
  const connection =
    path === '/v1/responses'
      ? { name: 'oa', kind: 'openai', baseUrl: `${url}/v1`, apiKey: 'sk-openai-secret-oa-0000' }
      : { name: 'an', kind: 'anthropic', baseUrl: url, apiKey: 'sk-ant-secret-an-0000' };
  leeway = await startLeeway({ connections: [connection] });
  const body =
    path === '/v1/responses'
      ? { model: 'gpt-4o', input: 'hi', stream: true }
      : { model: 'claude-sonnet-4-5', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] };
  const res = await fetch(`${leeway.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${leeway.key}`,
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { text, errorCode: await loggedErrorCode(leeway) };
}

/** The activity row is written once the relay settles, a moment after the client's last byte. */
async function loggedErrorCode(h: RunningLeeway): Promise<string | null> {
  for (let i = 0; i < 100; i++) {
    const list = await h.core.router.call('activity.list', { limit: 10 });
    const rows = list.ok ? (list.value as { errorCode: string | null }[]) : [];
    if (rows[0]) return rows[0].errorCode;
    await pause(20);
  }
  throw new Error('no activity row was written');
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

describe('a relayed stream’s end', () => {
  it('PROD-16: a 200 KB response.completed split across reads is a clean end, relayed byte for byte', async () => {
    const text = 'word '.repeat(40_000);
    const completed = event('response.completed', {
      type: 'response.completed',
      response: {
        id: 'resp_1',
        status: 'completed',
        output: [{ type: 'message', content: [{ type: 'output_text', text }] }],
      },
    });
    const pieces = [
      event('response.created', { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } }),
      event('response.output_text.delta', { type: 'response.output_text.delta', delta: 'word ' }),
      completed.slice(0, 40),
      completed.slice(40, 120_000),
      completed.slice(120_000),
    ];
    const { text: got, errorCode } = await throughLeeway(pieces, '/v1/responses');
    expect(got).toBe(pieces.join(''));
    expect(got).not.toContain('response.failed');
    expect(errorCode).toBeNull();
  });

  it('PROD-16: a blank line split between two reads still ends the last event', async () => {
    const pieces = [
      event('message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 3 } } }),
      'event: message_stop\ndata: {"type":"message_stop"}\n',
      '\n',
    ];
    const { text: got, errorCode } = await throughLeeway(pieces, '/v1/messages');
    expect(got).toBe(pieces.join(''));
    expect(errorCode).toBeNull();
  });

  it('PROD-16: comment blocks after the terminal event do not hide it', async () => {
    const pieces = [
      event('message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 3 } } }),
      event('message_stop', { type: 'message_stop' }) + ': keep-alive\n\n: bye\n\n',
    ];
    const { text: got, errorCode } = await throughLeeway(pieces, '/v1/messages');
    expect(got).toBe(pieces.join(''));
    expect(errorCode).toBeNull();
  });

  it('PROD-16: a stream whose big last delta has no terminal event after it gets an honest error event', async () => {
    const pieces = [
      event('message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 3 } } }),
      event('content_block_delta', {
        type: 'content_block_delta',
        delta: { type: 'text_delta', text: 'x'.repeat(150_000) },
      }),
    ];
    const { text: got, errorCode } = await throughLeeway(pieces, '/v1/messages');
    expect(got.startsWith(pieces.join(''))).toBe(true);
    expect(got.slice(pieces.join('').length)).toContain('ended without message_stop');
    expect(errorCode).toBe('upstream_invalid_response');
  });
});
