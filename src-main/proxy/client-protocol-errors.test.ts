import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { exchangeRaw, head, openRaw, portOf, type RawExchange } from '../testing/fuzz/raw-http';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstream: FakeUpstream;
let h: RunningLeeway;
let port: number;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic' });
  h = await startLeeway({
    connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-5'] })],
  });
  port = portOf(h.url);
});

afterAll(async () => {
  await h.stop();
  await upstream.close();
});

const WAIT_MS = 3_000;
const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });

/** The one answer of an exchange, which must be JSON and end with the server closing the socket. */
function onlyJsonAnswer(result: RawExchange): {
  status: number;
  headers: Record<string, string>;
  json: Record<string, unknown>;
} {
  expect(result.responses).toHaveLength(1);
  expect(result.rest).toBe('');
  expect(result.closedByServer).toBe(true);
  const [response] = result.responses;
  if (!response) throw new Error('no response');
  expect(response.headers['content-type']).toBe('application/json');
  return {
    status: response.status,
    headers: response.headers,
    json: JSON.parse(response.body) as Record<string, unknown>,
  };
}

describe('malformed HTTP gets a short JSON error instead of a bare status line', () => {
  it('a header line without a colon → 400 JSON, connection closed', async () => {
    const result = await exchangeRaw(
      port,
      'POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nthis is not a header\r\n\r\n',
      WAIT_MS,
    );
    const answer = onlyJsonAnswer(result);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      leeway: { code: 'invalid_input' },
    });
    expect(answer.headers['x-should-retry']).toBe('false');
  });

  it('oversized headers → 431 JSON', async () => {
    const result = await exchangeRaw(
      port,
      head('GET /v1/models HTTP/1.1', ['host: 127.0.0.1', `x-big: ${'a'.repeat(20_000)}`]),
      WAIT_MS,
    );
    const answer = onlyJsonAnswer(result);
    expect(answer.status).toBe(431);
    expect(answer.json).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_input' } });
  });

  it("bad chunked framing in a request body → 400 JSON in the endpoint's format", async () => {
    const request =
      head('POST /v1/messages HTTP/1.1', [
        'host: 127.0.0.1',
        'content-type: application/json',
        `x-api-key: ${h.key}`,
        'transfer-encoding: chunked',
      ]) + 'zz\r\n{"model":\r\n0\r\n\r\n';
    const answer = onlyJsonAnswer(await exchangeRaw(port, request, WAIT_MS));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ type: 'error', leeway: { code: 'invalid_input' } });
    expect(upstream.requests).toHaveLength(0);
  });

  it('both Content-Length and Transfer-Encoding → 400 JSON (request smuggling shape)', async () => {
    const request =
      head('POST /v1/chat/completions HTTP/1.1', [
        'host: 127.0.0.1',
        'content-length: 5',
        'transfer-encoding: chunked',
      ]) + '0\r\n\r\n';
    const answer = onlyJsonAnswer(await exchangeRaw(port, request, WAIT_MS));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: 'invalid_input' } });
  });

  it('CONNECT → 405 JSON rather than a silent close', async () => {
    const answer = onlyJsonAnswer(
      await exchangeRaw(port, head('CONNECT example.com:443 HTTP/1.1', ['host: example.com:443']), WAIT_MS),
    );
    expect(answer.status).toBe(405);
  });

  it('an Expect other than 100-continue → 417 JSON', async () => {
    const request =
      head('POST /v1/messages HTTP/1.1', [
        'host: 127.0.0.1',
        'expect: teapot',
        `x-api-key: ${h.key}`,
        `content-length: ${body.length}`,
      ]) + body;
    const result = await exchangeRaw(port, request, WAIT_MS);
    expect(result.responses[0]?.status).toBe(417);
    expect(JSON.parse(result.responses[0]?.body ?? '')).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
  });

  it('a good request pipelined before a malformed one is answered first, then the 400, then close', async () => {
    const good = head('GET /health HTTP/1.1', ['host: 127.0.0.1']);
    const result = await exchangeRaw(port, `${good}GET /health HTTP/1.1\r\nhost 127.0.0.1\r\n\r\n`, WAIT_MS);
    expect(result.responses.map((r) => r.status)).toEqual([200, 400]);
    expect(result.closedByServer).toBe(true);
  });
});

describe('the Host guard reads the Host header strictly', () => {
  const withHost = (hosts: string[]) =>
    head('POST /v1/messages HTTP/1.1', [
      ...hosts.map((value) => `host: ${value}`),
      'content-type: application/json',
      `x-api-key: ${h.key}`,
      `content-length: ${body.length}`,
      'connection: close',
    ]) + body;

  it('userinfo smuggled into Host (localhost:7431@evil.example.com) is refused', async () => {
    const answer = onlyJsonAnswer(await exchangeRaw(port, withHost(['localhost:7431@evil.example.com']), WAIT_MS));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ leeway: { code: 'forbidden_host' } });
  });

  it('two Host headers, the first loopback, are refused', async () => {
    const answer = onlyJsonAnswer(await exchangeRaw(port, withHost(['localhost:7431', 'evil.example.com']), WAIT_MS));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ leeway: { code: 'forbidden_host' } });
  });

  it('a missing Host, a non-numeric port and a path in Host are refused; loopback names with ports pass', async () => {
    const noHost =
      head('POST /v1/messages HTTP/1.1', [
        `x-api-key: ${h.key}`,
        `content-length: ${body.length}`,
        'connection: close',
      ]) + body;
    expect(onlyJsonAnswer(await exchangeRaw(port, noHost, WAIT_MS)).status).toBe(400);
    for (const bad of ['localhost:abc', 'localhost/evil', 'localhost:99999', 'evil.example.com']) {
      const answer = onlyJsonAnswer(await exchangeRaw(port, withHost([bad]), WAIT_MS));
      expect([bad, answer.status]).toEqual([bad, bad === 'evil.example.com' ? 403 : 400]);
    }
    for (const good of ['localhost:7431', '127.0.0.1', '[::1]:7431', 'LOCALHOST']) {
      const result = await exchangeRaw(port, withHost([good]), WAIT_MS);
      expect([good, result.responses[0]?.status]).toEqual([good, 200]);
    }
  });
});

describe('the socket cap closes connections past maxClientSockets', () => {
  it('with maxClientSockets 16, extra sockets are closed at once and a new request works once they are gone', async () => {
    expect((await h.core.router.call('settings.update', { maxClientSockets: 16 })).ok).toBe(true);
    try {
      const sockets = await Promise.all(Array.from({ length: 24 }, () => openRaw(port)));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const closed = sockets.filter((s) => s.socket.destroyed || s.socket.readableEnded).length;
      expect(closed).toBeGreaterThanOrEqual(8);
      await Promise.all(sockets.map((s) => s.finish(0)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await exchangeRaw(
        port,
        head('GET /health HTTP/1.1', ['host: 127.0.0.1', 'connection: close']),
        WAIT_MS,
      );
      expect(after.responses[0]?.status).toBe(200);
    } finally {
      await h.core.router.call('settings.update', { maxClientSockets: 1_024 });
    }
  });
});
