import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciFetchJson } from './undici-fetch-json';

let server: Server;
let base = '';
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/hang') return; // never answers: the client's deadline must end it
      if (req.url === '/text') return void res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: body === '' ? null : (JSON.parse(body) as unknown) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('TEST-7 claude-limit-reset', () => {
  it('RESET-3/RESET-4/RESET-8: createUndiciFetchJson against a loopback server: GET, POST, non-JSON, timeout', async () => {
    const fetchJson = createUndiciFetchJson();
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };

    expect(await fetchJson({ method: 'GET', url: `${base}/status?at_wall=1`, headers, timeoutMs: 2_000 })).toEqual({
      status: 200,
      json: { echo: null },
    });
    const posted = await fetchJson({
      method: 'POST',
      url: `${base}/claim`,
      headers,
      body: { program: 'juniper_tide' },
      timeoutMs: 2_000,
    });
    expect(posted).toEqual({ status: 201, json: { echo: { program: 'juniper_tide' } } });
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/claim', body: '{"program":"juniper_tide"}' });
    expect(seen[1]?.headers.authorization).toBe('Bearer t');

    expect(await fetchJson({ method: 'GET', url: `${base}/text`, headers, timeoutMs: 2_000 })).toEqual({
      status: 502,
      json: null,
    });
    expect(await fetchJson({ method: 'GET', url: `${base}/hang`, headers, timeoutMs: 150 })).toEqual({
      error: 'timeout',
    });
    expect(await fetchJson({ method: 'GET', url: 'http://127.0.0.1:1/', headers, timeoutMs: 2_000 })).toEqual({
      error: 'network',
    });
  });
});
