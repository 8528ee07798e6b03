/**
 * Issue 21 §4, the accept layer's fault suite: a body over `maxBodyBytes` must get its 413 (with
 * and without `Expect: 100-continue`), never a connection reset, from real undici, fetch, node:http
 * and the Anthropic SDK.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import Anthropic from '@anthropic-ai/sdk';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { head, parseResponses } from '../fuzz/raw-http';
import {
  anthropicHeaders,
  newestRow,
  openaiHeaders,
  rowCount,
  startAcceptBench,
  stopAcceptBench,
  type AcceptBench,
} from './accept-harness';

let b: AcceptBench;
beforeAll(async () => (b = await startAcceptBench()));
afterAll(() => stopAcceptBench(b));

/** 40 MB: over the default `maxBodyBytes` (32 MB), as in the trial. */
const OVERSIZED = Buffer.alloc(40 * 1024 * 1024, 0x61);
const TRIES = 16;

/** The oversized body a megabyte at a time, as a client streaming an upload sends it. */
function* megabytes(): Generator<Buffer> {
  for (let at = 0; at < OVERSIZED.length; at += 1024 * 1024) yield OVERSIZED.subarray(at, at + 1024 * 1024);
}

function expect413(status: number, json: unknown): void {
  expect(status).toBe(413);
  expect(json).toMatchObject({
    type: 'error',
    error: { type: 'request_too_large' },
    leeway: { code: 'body_too_large' },
  });
}

/** node:http with `Expect: 100-continue`: the body is written only after a 100 Continue, as such clients do. */
function postExpectingContinue(sendAnyway: boolean): Promise<{ status: number; json: unknown; continued: boolean }> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: b.port,
        path: '/v1/messages',
        method: 'POST',
        agent: false,
        headers: { ...anthropicHeaders(b.h.key), expect: '100-continue', 'content-length': OVERSIZED.length },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(parts).toString('utf8')),
            continued,
          }),
        );
      },
    );
    req.on('continue', () => {
      continued = true;
      req.end(OVERSIZED);
    });
    req.on('error', reject);
    // A client that does not wait (curl after its 1 s, or one that ignores the header) sends at once.
    if (sendAnyway) req.end(OVERSIZED);
    else req.flushHeaders();
  });
}

describe('issue 21 §4: a body over maxBodyBytes gets the 413, never a reset', () => {
  it(`issue 21 §4: undici request() sending 40 MB reads the 413 (x-should-retry: false) in ${TRIES} of ${TRIES} tries`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const res = await undiciRequest(`${b.h.url}/v1/messages`, {
        method: 'POST',
        headers: anthropicHeaders(b.h.key),
        body: OVERSIZED,
      });
      expect413(res.statusCode, await res.body.json());
      expect(res.headers['x-should-retry']).toBe('false');
    }
    expect(await newestRow(b.h)).toMatchObject({ status: 413, errorCode: 'body_too_large' });
  }, 120_000);

  it(`issue 21 §4: undici request() streaming 40 MB (chunked) reads the 413 in ${TRIES} of ${TRIES} tries`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const res = await undiciRequest(`${b.h.url}/v1/messages`, {
        method: 'POST',
        headers: anthropicHeaders(b.h.key),
        body: Readable.from(megabytes()),
      });
      expect413(res.statusCode, await res.body.json());
    }
  }, 120_000);

  it(`issue 21 §4: fetch() sending 40 MB chunked (no Content-Length) reads the 413 in ${TRIES} of ${TRIES} tries`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const res = await fetch(`${b.h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: openaiHeaders(b.h.key),
        body: ReadableStream.from(megabytes()),
        duplex: 'half',
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(await res.json()).toMatchObject({ error: { code: 'body_too_large', type: 'invalid_request_error' } });
    }
  }, 120_000);

  it(`issue 21 §4: Expect: 100-continue with a 40 MB Content-Length is refused before the body, ${TRIES} of ${TRIES} tries`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const answer = await postExpectingContinue(false);
      expect413(answer.status, answer.json);
      expect(answer.continued).toBe(false);
    }
  }, 120_000);

  it(`issue 21 §4: Expect: 100-continue from a client that sends the 40 MB anyway still reads the 413, ${TRIES} of ${TRIES} tries`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const answer = await postExpectingContinue(true);
      expect413(answer.status, answer.json);
    }
  }, 120_000);

  it('issue 21 §4: the Anthropic SDK sending 40 MB reads the 413 once and does not upload it again', async () => {
    const before = await rowCount(b.h);
    const client = new Anthropic({ baseURL: b.h.url, apiKey: b.h.key, maxRetries: 2 });
    const failure: unknown = await client.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x'.repeat(40e6) }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(413);
    expect(await rowCount(b.h)).toBe(before + 1);
  }, 60_000);

  it('issue 21 §4: a client that never stops uploading after its 413 is read from for a while, then cut within the bound', async () => {
    const chunk = Buffer.concat([Buffer.from('100000\r\n'), OVERSIZED.subarray(0, 0x100000), Buffer.from('\r\n')]);
    const outcome = await new Promise<{ answered: string; sent: number; ms: number }>((resolve) => {
      // Half-open, so the server's FIN after the 413 does not stop this client's writes.
      const socket = connect({ port: b.port, host: '127.0.0.1', allowHalfOpen: true });
      const startedAt = Date.now();
      let answered = '';
      let sent = 0;
      let open = true;
      socket.on('data', (data: Buffer) => (answered += data.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open = false;
        resolve({ answered, sent, ms: Date.now() - startedAt });
      });
      socket.write(
        head('POST /v1/messages HTTP/1.1', [
          'host: 127.0.0.1',
          `x-api-key: ${b.h.key}`,
          'content-type: application/json',
          'transfer-encoding: chunked',
        ]),
      );
      const pump = () => {
        while (open && sent < 1024 * 1024 * 1024) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
        socket.destroy();
      };
      pump();
    });
    expect(outcome.answered).toMatch(/^HTTP\/1\.1 413 /);
    // The 32 MB limit, then 128 MB read and dropped while lingering (plus what the socket buffers held).
    expect(outcome.sent).toBeGreaterThan(150 * 1024 * 1024);
    expect(outcome.sent).toBeLessThan(400 * 1024 * 1024);
    expect(outcome.ms).toBeLessThan(15_000);
  }, 30_000);

  it('issue 21 §4: on the wire, the 413 comes right after the head: no 100 Continue, connection: close', async () => {
    const request = head('POST /v1/messages HTTP/1.1', [
      'host: 127.0.0.1',
      `x-api-key: ${b.h.key}`,
      'content-type: application/json',
      'expect: 100-continue',
      `content-length: ${OVERSIZED.length}`,
    ]);
    // Every byte the server sends until it closes (the client sends no body and then nothing).
    const wire = await new Promise<string>((resolve) => {
      const socket = connect({ port: b.port, host: '127.0.0.1' });
      let data = '';
      const timer = setTimeout(() => socket.destroy(), 5_000);
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(data);
      });
      socket.write(request);
    });
    expect(wire).toMatch(/^HTTP\/1\.1 413 /);
    const [answer] = parseResponses(wire).responses;
    expect(answer?.headers.connection).toBe('close');
    expect(answer?.headers['x-should-retry']).toBe('false');
  });

  it('issue 21 §4: Expect: 100-continue within the limit still gets its 100 Continue and is served', async () => {
    const body = JSON.stringify({ model: 'main', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    const answer = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: b.port,
          path: '/v1/messages',
          method: 'POST',
          agent: false,
          headers: { ...anthropicHeaders(b.h.key), expect: '100-continue', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
        },
      );
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer).toEqual({ status: 200, continued: true });
  });
});
