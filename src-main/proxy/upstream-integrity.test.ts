import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_HOLD_CAP } from './relay/answer-start';
import { ask, createIntegrityScene, lastRow } from './integrity.testkit';

const scene = createIntegrityScene();
afterEach(() => scene.cleanup());

interface AnthropicError {
  type: string;
  error: { type: string; message: string };
}
interface OpenaiError {
  error: { message: string; type: string; code: string };
}

describe('commit on the first byte', () => {
  for (const stream of [false, true]) {
    const kind = stream ? 'stream' : 'JSON';
    it(`PROD-16: a ${kind} upstream that resets after its 200 headers is failed over, and the row names the hop`, async () => {
      const { ups, h } = await scene.start('anthropic', 2);
      ups[0]?.enqueue({ kind: 'reset-after-headers' });
      const answer = await ask(h, 'anthropic', stream);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-leeway-connection')).toBe('backup');
      expect(answer.headers.get('x-leeway-failover')).toBe('primary=reset');
      expect(answer.text).toBe(ups[1]?.requests[0]?.response?.body);
      const row = await lastRow(h);
      expect(row).toMatchObject({ connection: 'backup', status: 200, errorCode: null });
      expect(row.failover).toEqual([{ connection: 'primary', status: null, reason: 'reset' }]);
    });

    it(`PROD-16: the only target resetting after its ${kind} headers gives the client a JSON error, never an empty reply`, async () => {
      const only = await scene.start('anthropic', 1);
      only.ups[0]?.enqueue({ kind: 'reset-after-headers' });
      const answer = await ask(only.h, 'anthropic', stream);
      expect(answer.status).toBe(502);
      expect(answer.headers.get('content-type')).toContain('application/json');
      const body = JSON.parse(answer.text) as AnthropicError;
      expect(body.type).toBe('error');
      expect(body.error.message).toContain('reset');
      const row = await lastRow(only.h);
      expect(row.status).toBe(502);
      expect(row.errorCode).toBe('upstream_error');
    });
  }

  it('PROD-16: an upstream silent after its 200 headers is cut at upstreamIdleTimeoutMs and failed over', async () => {
    const { ups, h } = await scene.start('openai', 2, { upstreamIdleTimeoutMs: 1_000 });
    ups[0]?.enqueue({ kind: 'stall-after-headers' });
    const started = Date.now();
    const answer = await ask(h, 'openai', true);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(answer.headers.get('x-leeway-connection')).toBe('backup');
    expect(answer.headers.get('x-leeway-failover')).toBe('primary=timeout');
    expect(answer.text).toContain('data: [DONE]');
  });

  it('PROD-16: an error status whose body stalls is given up at errorBodyTimeoutMs, not the headers timeout', async () => {
    const { ups, h } = await scene.start('anthropic', 2, {
      streamHeadersTimeoutMs: 60_000,
      responseTimeoutMs: 60_000,
      errorBodyTimeoutMs: 1_000,
    });
    ups[0]?.enqueue({ kind: 'stall-after-headers', status: 500 });
    const started = Date.now();
    const answer = await ask(h, 'anthropic', false);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-leeway-connection')).toBe('backup');
  });
});

describe('malformed upstream answers', () => {
  it('PROD-17: an HTML error page from the last target reaches an Anthropic client as its own JSON error, with the upstream text, status and headers', async () => {
    const { ups, h } = await scene.start('anthropic', 1);
    const page =
      '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    ups[0]?.enqueue({
      kind: 'status',
      status: 502,
      body: page,
      headers: { 'content-type': 'text/html', 'retry-after': '9' },
    });
    const answer = await ask(h, 'anthropic', false);
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.headers.get('retry-after')).toBe('9');
    expect(answer.headers.get('request-id')).toBe('req_a1_1');
    const body = JSON.parse(answer.text) as AnthropicError;
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('api_error');
    expect(body.error.message).toContain('502 Bad Gateway');
    expect(body.error.message).toContain('nginx');
    expect(body.error.message).not.toContain('<html>');
  });

  it('PROD-17: an HTML error page reaches an OpenAI client as {error:{message,type,code}}', async () => {
    const { ups, h } = await scene.start('openai', 1);
    ups[0]?.enqueue({
      kind: 'status',
      status: 503,
      body: '<html><body>Service Unavailable</body></html>',
      headers: { 'content-type': 'text/html' },
    });
    const answer = await ask(h, 'openai', true);
    expect(answer.status).toBe(503);
    const body = JSON.parse(answer.text) as OpenaiError;
    expect(body.error.type).toBe('server_error');
    expect(body.error.code).toBe('upstream_error');
    expect(body.error.message).toContain('Service Unavailable');
  });

  for (const shape of ['empty', 'invalid-json'] as const) {
    it(`PROD-16: a 200 with an ${shape} body is failed over before the client sees it`, async () => {
      const { ups, h } = await scene.start('anthropic', 2);
      ups[0]?.enqueue({ kind: 'malformed-ok', shape });
      const answer = await ask(h, 'anthropic', false);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-leeway-failover')).toBe('primary=invalid_response');
      expect(answer.text).toBe(ups[1]?.requests[0]?.response?.body);
    });

    it(`PROD-17: a 200 with an ${shape} body from the last target is a 502 upstream_invalid_response, and the row says so`, async () => {
      const { ups, h } = await scene.start('openai', 1);
      ups[0]?.enqueue({ kind: 'malformed-ok', shape });
      const answer = await ask(h, 'openai', false);
      expect(answer.status).toBe(502);
      const body = JSON.parse(answer.text) as OpenaiError;
      expect(body.error.code).toBe('upstream_invalid_response');
      const row = await lastRow(h);
      expect(row).toMatchObject({ status: 502, errorCode: 'upstream_invalid_response' });
    });
  }

  it('PROD-10: a JSON answer larger than the hold cap streams on past it, byte for byte', async () => {
    const { ups, h } = await scene.start('anthropic', 1);
    ups[0]?.enqueue({ kind: 'ok', text: 'x'.repeat(ANSWER_HOLD_CAP + 100_000) });
    const answer = await ask(h, 'anthropic', false);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(ANSWER_HOLD_CAP);
    expect(answer.text).toBe(ups[0]?.requests[0]?.response?.body);
    expect((await lastRow(h)).errorCode).toBeNull();
  });

  it('PROD-16: a stream that ends before its first event is failed over', async () => {
    const { ups, h } = await scene.start('anthropic', 2);
    ups[0]?.enqueue({ kind: 'malformed-ok', shape: 'unterminated', events: 0 });
    const answer = await ask(h, 'anthropic', true);
    expect(answer.headers.get('x-leeway-connection')).toBe('backup');
    expect(answer.headers.get('x-leeway-failover')).toBe('primary=invalid_response');
    expect(answer.text).toBe(ups[1]?.requests[0]?.response?.body);
  });

  it('PROD-17: an Anthropic stream that ends without message_stop after relayed events ends with an error event, and the row says so', async () => {
    const { ups, h } = await scene.start('anthropic', 2);
    ups[0]?.enqueue({ kind: 'malformed-ok', shape: 'unterminated', events: 4 });
    const answer = await ask(h, 'anthropic', true);
    const relayed = ups[0]?.requests[0]?.response?.body ?? '<none>';
    expect(answer.headers.get('x-leeway-connection')).toBe('primary');
    expect(answer.text.startsWith(relayed)).toBe(true);
    const tail = answer.text.slice(relayed.length);
    expect(tail).toMatch(/^event: error\ndata: /);
    expect(tail).toContain('message_stop');
    expect(ups[1]?.requests).toHaveLength(0);
    const row = await lastRow(h);
    expect(row).toMatchObject({ connection: 'primary', status: 200, errorCode: 'upstream_invalid_response' });
  });

  it('PROD-17: an OpenAI stream that ends without [DONE] ends with an error chunk, and the row says so', async () => {
    const { ups, h } = await scene.start('openai', 1);
    ups[0]?.enqueue({ kind: 'malformed-ok', shape: 'unterminated' });
    const answer = await ask(h, 'openai', true);
    const tail = answer.text.slice((ups[0]?.requests[0]?.response?.body ?? '').length);
    const data = JSON.parse(tail.replace(/^data: /, '')) as OpenaiError;
    expect(data.error.code).toBe('upstream_invalid_response');
    expect((await lastRow(h)).errorCode).toBe('upstream_invalid_response');
  });

  it('PROD-16: a stream whose first event is an in-band overloaded error is failed over like a 529', async () => {
    const { ups, h } = await scene.start('anthropic', 2);
    ups[0]?.enqueue({ kind: 'stream-error', after: 0 });
    const answer = await ask(h, 'anthropic', true);
    expect(answer.headers.get('x-leeway-connection')).toBe('backup');
    expect(answer.headers.get('x-leeway-failover')).toBe('primary=529');
    expect(answer.text).toBe(ups[1]?.requests[0]?.response?.body);
  });

  it("PROD-17: the last target's in-band error stream is relayed as sent, and the row calls it an error", async () => {
    const { ups, h } = await scene.start('openai', 1);
    ups[0]?.enqueue({ kind: 'stream-error', after: 0 });
    const answer = await ask(h, 'openai', true);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(ups[0]?.requests[0]?.response?.body);
    expect((await lastRow(h)).errorCode).toBe('upstream_stream_error');
  });

  it('PROD-17: a stream whose upstream drops mid-way is recorded as upstream_stream_error with the status that was sent', async () => {
    const { ups, h } = await scene.start('anthropic', 1);
    ups[0]?.enqueue({ kind: 'stream-then-drop', events: 3 });
    const answer = await ask(h, 'anthropic', true);
    expect(answer.text).toContain('event: error');
    expect(await lastRow(h)).toMatchObject({ status: 200, errorCode: 'upstream_stream_error' });
  });
});

describe('secrets in relayed errors', () => {
  it('PROD-18: an upstream error that echoes the connection key reaches the client redacted, in both body shapes', async () => {
    const { ups, h } = await scene.start('anthropic', 1);
    // The 400 first: it is the request's fault and leaves the connection usable; the 401 then cools it.
    ups[0]?.enqueue(
      {
        kind: 'status',
        status: 400,
        body: 'bad key sk-ant-secret-a1-0000 sent',
        headers: { 'content-type': 'text/plain' },
      },
      { kind: 'status', status: 401, echoKey: true },
    );
    const wrapped = await ask(h, 'anthropic', false);
    expect(wrapped.status).toBe(400);
    expect(wrapped.text).not.toContain('sk-ant-secret-a1-0000');
    expect((JSON.parse(wrapped.text) as AnthropicError).error.message).toContain('bad key [redacted] sent');
    const inFormat = await ask(h, 'anthropic', false);
    expect(inFormat.status).toBe(401);
    expect(ups[0]?.requests[1]?.response?.body).toContain('sk-ant-secret-a1-0000');
    expect(inFormat.text).not.toContain('sk-ant-secret-a1-0000');
    expect((JSON.parse(inFormat.text) as AnthropicError).error.message).toBe('Invalid credential: [redacted]');
    const list = [
      await h.core.router.call('connections.list', undefined),
      await h.core.router.call('cooldowns.list', undefined),
    ];
    expect(JSON.stringify(list)).not.toContain('sk-ant-secret-a1-0000');
  });
});
