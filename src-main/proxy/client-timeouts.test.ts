import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { exchangeRaw, head, openRaw, portOf, type RawSocket } from '../testing/fuzz/raw-http';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstream: FakeUpstream;
let h: RunningLeeway;
let port: number;

const IDLE_MS = 1_000;
const REQUEST_MS = 5_000;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic' });
  h = await startLeeway({
    connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-5'] })],
  });
  const updated = await h.core.router.call('settings.update', {
    clientIdleTimeoutMs: IDLE_MS,
    clientRequestTimeoutMs: REQUEST_MS,
  });
  expect(updated.ok).toBe(true);
  port = portOf(h.url);
});

afterAll(async () => {
  await h.stop();
  await upstream.close();
});

const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
const messagesHead = (key: string, length: number) =>
  head('POST /v1/messages HTTP/1.1', [
    'host: 127.0.0.1',
    'content-type: application/json',
    'anthropic-version: 2023-06-01',
    `x-api-key: ${key}`,
    `content-length: ${length}`,
  ]);

describe('client sockets are bounded in time while their request is read', () => {
  it('a body that stops half way gets 408 in Anthropic format and the socket is closed after the idle limit', async () => {
    const raw = await openRaw(port);
    raw.write(messagesHead(h.key, body.length) + body.slice(0, 20));
    const result = await raw.finish(IDLE_MS + 3_000);
    expect(result.closedByServer).toBe(true);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(IDLE_MS - 100);
    expect(result.responses).toHaveLength(1);
    const [response] = result.responses;
    expect(response?.status).toBe(408);
    expect(response?.headers.connection).toBe('close');
    expect(JSON.parse(response?.body ?? '')).toMatchObject({
      type: 'error',
      error: { type: 'timeout_error' },
      leeway: { code: 'request_timeout' },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('an unauthenticated request whose body never finishes is answered 401 and does not keep its socket', async () => {
    const raw = await openRaw(port);
    raw.write(messagesHead('lw-wrong-key-000000000000', 10_000) + '{"model":');
    const result = await raw.finish(IDLE_MS + 3_000);
    expect(result.responses[0]?.status).toBe(401);
    expect(result.closedByServer).toBe(true);
  });

  it('a body that trickles forever is cut at the request deadline with 408', async () => {
    const raw = await openRaw(port);
    raw.write(messagesHead(h.key, 100_000));
    const drip = setInterval(() => raw.write(' '), 300);
    try {
      const result = await raw.finish(REQUEST_MS + 3_000);
      expect(result.closedByServer).toBe(true);
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 200);
      expect(result.responses[0]?.status).toBe(408);
    } finally {
      clearInterval(drip);
    }
  }, 15_000);

  it('a socket that connects and never sends a byte is closed after the idle limit', async () => {
    const raw: RawSocket = await openRaw(port);
    const result = await raw.finish(IDLE_MS + 3_000);
    expect(result.closedByServer).toBe(true);
    expect(result.responses).toHaveLength(0);
  });

  it('headers that never finish get a 408 JSON answer once the request deadline passes', async () => {
    const raw = await openRaw(port);
    raw.write('POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    const drip = setInterval(() => raw.write('x-slow: 1\r\n'), 300);
    try {
      const result = await raw.finish(REQUEST_MS + 3_000);
      expect(result.closedByServer).toBe(true);
      expect(result.responses[0]?.status).toBe(408);
      expect(JSON.parse(result.responses[0]?.body ?? '')).toMatchObject({ leeway: { code: 'request_timeout' } });
    } finally {
      clearInterval(drip);
    }
  }, 15_000);

  it('a streamed answer that outlasts both client limits is relayed whole: the limits cover reading the request only', async () => {
    // Silence before the headers and between frames is longer than the idle limit; the whole answer outlasts the deadline.
    upstream.enqueue({
      kind: 'delay',
      ms: IDLE_MS + 500,
      then: { kind: 'slow-stream', intervalMs: IDLE_MS + 100, deltas: 1 },
    });
    const streamBody = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 8,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const startedAt = Date.now();
    const result = await exchangeRaw(
      port,
      messagesHead(h.key, streamBody.length).replace('\r\n\r\n', '\r\nconnection: close\r\n\r\n') + streamBody,
      15_000,
    );
    expect(Date.now() - startedAt).toBeGreaterThan(REQUEST_MS);
    expect(result.responses[0]?.status).toBe(200);
    expect(result.responses[0]?.body).toContain('message_stop');
  }, 20_000);
});
