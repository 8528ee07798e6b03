/**
 * Issue 21 §7, §8, §15, the accept layer's fault suite: request targets and sockets a strict proxy
 * mishandled — an absolute-form target, a client that half-closes, a base URL without /v1.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { head, openRaw, parseResponses } from '../fuzz/raw-http';
import {
  anthropicHeaders,
  newestRow,
  openaiHeaders,
  startAcceptBench,
  stopAcceptBench,
  type AcceptBench,
} from './accept-harness';

let b: AcceptBench;
beforeAll(async () => (b = await startAcceptBench()));
afterAll(() => stopAcceptBench(b));

describe('issue 21 §7: an absolute-form request target is answered in JSON', () => {
  it('issue 21 §7: GET http://127.0.0.1:PORT/v1/models (our own authority) is served as /v1/models', async () => {
    const raw = await openRaw(b.port);
    raw.write(
      head(`GET http://127.0.0.1:${b.port}/v1/models HTTP/1.1`, [`host: 127.0.0.1:${b.port}`, `x-api-key: ${b.h.key}`]),
    );
    const result = await raw.finish(5_000, (responses) => responses.length > 0);
    expect(result.responses[0]?.status).toBe(200);
    expect(result.responses[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(result.responses[0]?.body ?? '{}')).toHaveProperty('data');
  });

  it('issue 21 §7, PROD-18: an absolute-form target naming another host is refused in JSON (Leeway is no forward proxy)', async () => {
    const raw = await openRaw(b.port);
    raw.write(head('GET http://example.com/v1/models HTTP/1.1', ['host: 127.0.0.1', `x-api-key: ${b.h.key}`]));
    const result = await raw.finish(5_000, (responses) => responses.length > 0);
    const answer = result.responses[0];
    expect(answer?.status).toBe(403);
    expect(answer?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ type: 'error', leeway: { code: 'forbidden_host' } });
  });

  it('issue 21 §7: an absolute-form target to an unknown API path is a JSON 404, not plain text', async () => {
    const raw = await openRaw(b.port);
    raw.write(head(`GET http://localhost:${b.port}/v1/nothing HTTP/1.1`, [`host: localhost:${b.port}`]));
    const result = await raw.finish(5_000, (responses) => responses.length > 0);
    expect(result.responses[0]?.status).toBe(404);
    expect(result.responses[0]?.headers['content-type']).toContain('application/json');
  });

  it('issue 21 §7: an absolute-form target to a path nothing serves (no API, no dashboard file) is a JSON 404 too', async () => {
    for (const path of ['/nothing', '/assets/missing.js', '/favicon.unknown']) {
      const raw = await openRaw(b.port);
      raw.write(head(`GET http://127.0.0.1:${b.port}${path} HTTP/1.1`, [`host: 127.0.0.1:${b.port}`]));
      const result = await raw.finish(5_000, (responses) => responses.length > 0);
      const answer = result.responses[0];
      expect(answer?.status, path).toBe(404);
      expect(answer?.headers['content-type'], path).toContain('application/json');
      expect(JSON.parse(answer?.body ?? '{}'), path).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
  });
});

/** Writes `text`, half-closes (FIN) and reads until the server closes. */
function halfClosedExchange(text: string): Promise<{ data: string; ended: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ port: b.port, host: '127.0.0.1', allowHalfOpen: true });
    let data = '';
    let ended = false;
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('end', () => (ended = true));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data, ended });
    });
    socket.end(text);
  });
}

describe('issue 21 §8: a client that half-closes after its request is answered', () => {
  const body = JSON.stringify({ model: 'main', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
  const post = () =>
    head('POST /v1/messages HTTP/1.1', [
      'host: 127.0.0.1',
      `x-api-key: ${b.h.key}`,
      'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`,
    ]) + body;

  it('issue 21 §8: POST /v1/messages, then FIN: the full answer arrives and the server closes', async () => {
    const received = await halfClosedExchange(post());
    expect(parseResponses(received.data).responses[0]?.status).toBe(200);
    expect(received.ended).toBe(true);
  });

  it('issue 21 §8: an upstream that takes 800 ms: the half-closed client gets 102 Processing, then the whole answer', async () => {
    b.anthropic.enqueue({ kind: 'delay', ms: 800 });
    const received = await halfClosedExchange(post());
    expect(received.data.startsWith('HTTP/1.1 102 Processing\r\n\r\n')).toBe(true);
    const [answer] = parseResponses(received.data).responses;
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ type: 'message' });
    expect(received.ended).toBe(true);
    expect(await newestRow(b.h)).toMatchObject({ status: 200 });
  });

  it('issue 21 §8: an HTTP/1.0 client that half-closes is answered without any 1xx (RFC 9110 §15.2)', async () => {
    b.anthropic.enqueue({ kind: 'delay', ms: 500 });
    const received = await halfClosedExchange(post().replace('HTTP/1.1', 'HTTP/1.0'));
    expect(received.data).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(parseResponses(received.data).responses[0]?.body ?? '{}')).toMatchObject({ type: 'message' });
  });

  it('issue 21 §8: GET /health, then FIN: answered and closed', async () => {
    const received = await halfClosedExchange(head('GET /health HTTP/1.1', ['host: 127.0.0.1']));
    expect(parseResponses(received.data).responses[0]?.status).toBe(200);
    expect(received.ended).toBe(true);
  });
});

describe('issue 21 §8: a client that closes for good while waiting still cancels its request', () => {
  it('issue 21 §8, PROD-10: fetch aborted while the upstream thinks: the upstream request is cancelled and the row says client_closed', async () => {
    const before = b.anthropic.requests.length;
    b.anthropic.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const asked = fetch(`${b.h.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders(b.h.key),
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    }).catch(() => null);
    await b.anthropic.waitFor((u) => u.requests.length > before, 3_000);
    controller.abort();
    await asked;
    await b.anthropic.waitFor((u) => u.requests[before]?.aborted === true, 3_000);
    expect(b.anthropic.requests[before]?.aborted).toBe(true);
    await expect.poll(async () => (await newestRow(b.h))?.errorCode, { timeout: 3_000 }).toBe('client_closed');
  });
});

describe('issue 21 §15: the API paths without /v1 are served like /v1/..., with a warning', () => {
  it('issue 21 §15: POST /messages (opencode, Kilo) is served as /v1/messages with x-leeway-warning and one log line', async () => {
    const res = await fetch(`${b.h.url}/messages`, {
      method: 'POST',
      headers: anthropicHeaders(b.h.key),
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-warning')).toContain('/v1');
    expect(await res.json()).toMatchObject({ type: 'message' });
    expect(b.h.logs.some((line) => line.includes('/messages') && line.includes('/v1'))).toBe(true);
    expect(await newestRow(b.h)).toMatchObject({ status: 200, endpoint: 'messages' });
  });

  it('issue 21 §15: POST /messages/count_tokens and GET /models are served too, with the warning', async () => {
    const count = await fetch(`${b.h.url}/messages/count_tokens`, {
      method: 'POST',
      headers: anthropicHeaders(b.h.key),
      body: JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(count.status).toBe(200);
    expect(count.headers.get('x-leeway-warning')).toContain('/v1');
    await count.text();
    const models = await fetch(`${b.h.url}/models`, { headers: openaiHeaders(b.h.key) });
    expect(models.status).toBe(200);
    expect(models.headers.get('x-leeway-warning')).toContain('/v1');
    expect(await models.json()).toHaveProperty('data');
  });

  it('issue 21 §15: POST /chat/completions and /responses keep working and now carry the warning', async () => {
    const chat = await fetch(`${b.h.url}/chat/completions`, {
      method: 'POST',
      headers: openaiHeaders(b.h.key),
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get('x-leeway-warning')).toContain('/v1');
    await chat.text();
  });

  it('issue 21 §15: a wrong method on /messages is a JSON 405 naming POST', async () => {
    const res = await fetch(`${b.h.url}/messages`, { headers: anthropicHeaders(b.h.key) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ type: 'error' });
  });
});
