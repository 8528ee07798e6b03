/**
 * Random malformed requests for the proxy fuzz suite: a plausible request, then a few mutations of
 * its method, path, version, headers, framing and JSON body. Pure: the same PRNG state gives the
 * same bytes, so a failing case is reproduced from its seed.
 */
import type { Prng } from './prng';

export interface FuzzCase {
  /** What was done to the request, for the failure message. */
  label: string;
  /** Written in order, `gapMs` apart (a slow client). */
  parts: Buffer[];
  gapMs: number;
  /** Requests pipelined on the socket. */
  requests: number;
  /** Per request: a HEAD, whose answer has no body. */
  bodiless: boolean[];
  /** The request is incomplete on purpose: the server must answer 408 or close within its limits. */
  stall: boolean;
  /** The server may keep the socket open after answering (HTTP/1.1 without `connection: close`). */
  keepAlive: boolean;
  /** Errors must be in the Anthropic shape: the path is the Messages API and the request head was sent whole. */
  anthropic: boolean;
  /** The path is Leeway's proxy namespace, where every error is JSON. */
  proxyPath: boolean;
  /** Nothing at all was sent: a silent close is the right answer. */
  empty: boolean;
}

export interface FuzzKeys {
  good: string;
}

const MODEL_VALUES: readonly unknown[] = [
  'claude-sonnet-4-5',
  'gpt-4o',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'prototype',
  'valueOf',
  '__defineGetter__',
  '',
  ' ',
  'x'.repeat(300),
  'm'.repeat(5_000),
  'claude-sonnet-4-5\u0000',
  '../../etc/passwd',
  'ñ-模型-🚀',
  '%00',
  'null',
  42,
  -1,
  1e308,
  null,
  true,
  {},
  [],
  ['claude-sonnet-4-5'],
  { toString: 'x' },
  { __proto__: 'x' },
];
const CONTENT_VALUES: readonly unknown[] = [
  'hi',
  '',
  42,
  null,
  [],
  [{ type: 'text', text: 'hi' }],
  { a: 1 },
  'é'.repeat(2_000),
];
const RAW_BODIES: readonly string[] = [
  '',
  '{',
  '{"model":',
  'null',
  '[]',
  '42',
  '"str"',
  'true',
  '{"model":"claude-sonnet-4-5"',
  '\uFEFF{"model":"claude-sonnet-4-5","messages":[]}',
  '['.repeat(5_000),
  '{"a":'.repeat(3_000),
  '{"__proto__":{"model":"claude-sonnet-4-5"},"messages":[]}',
  '{"model":"claude-sonnet-4-5","model":"__proto__","messages":[]}',
  '{"constructor":{"prototype":{"model":"x"}},"model":"constructor","messages":[]}',
  '{"model":"claude-sonnet-4-5","messages":[],"stream":"yes"}',
  `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"${'x'.repeat(70_000)}"}]}`,
  '\u0000\u0001\u0002',
  '{"model":"\\ud800","messages":[]}',
];
const PATHS: readonly string[] = [
  '/v1/messages',
  '/v1/messages',
  '/v1/messages',
  '/v1/chat/completions',
  '/v1/chat/completions',
  '/v1/messages?beta=true',
  '/v1/messages/count_tokens',
  '/v1/responses',
  '/v1/models',
  '/v1/models/claude-sonnet-4-5',
  '/health',
  '/v1/messages/',
  '/V1/MESSAGES',
  '/v1//messages',
  '/v1/%2e%2e/messages',
  '/v1/messages%00',
  '/v1/nope',
  '/v1',
  `/v1/messages?${'q'.repeat(3_000)}`,
  '/v1/__proto__',
  '/v1/constructor',
];
const OTHER_PATHS: readonly string[] = [
  '*',
  'http://127.0.0.1/v1/messages',
  '/',
  '/api/rpc/__proto__',
  '/%ZZ',
  `/${'a'.repeat(9_000)}`,
];
const METHODS: readonly string[] = [
  'GET',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'HEAD',
  'TRACE',
  'FOO',
  'post',
  'CONNECT',
  'PROPFIND',
];
const VERSIONS: readonly string[] = ['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 extra', ''];
const HOSTS: readonly (string | null)[] = [
  null,
  'evil.example.com',
  'localhost:7431@evil.example.com',
  'localhost:abc',
  '[::1]:7431',
  'LOCALHOST',
  '127.0.0.2',
  'localhost.',
  'a b',
  'localhost:99999',
  '',
  'localhost:7431/x',
];
const CONTENT_TYPES: readonly (string | null)[] = [
  null,
  'text/plain',
  'application/json; charset=utf-16',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  '*/*',
];
const JUNK_HEADERS: readonly string[] = [
  'x-bad: a\u0001b',
  'bad header: x',
  'x-empty:',
  ':no-name',
  'x-fold: a\r\n  folded',
  'content-encoding: gzip',
  'content-encoding: br, zstd',
  'transfer-encoding: identity',
  'transfer-encoding: gzip, chunked',
  'anthropic-version: 1999-01-01',
  'anthropic-beta: __proto__',
  'x-api-key: ',
  'authorization: Bearer',
  'authorization: Basic Zm9vOmJhcg==',
  'origin: https://evil.example',
  'origin: null',
  'x-huge: ' + 'h'.repeat(70_000),
  'expect: 100-continue',
  'expect: teapot',
  'connection: upgrade',
  'upgrade: websocket',
  'content-length: 5',
  'content-length: -1',
  'content-length: abc',
  'cookie: __proto__=1',
  `x-many: ${'v,'.repeat(2_000)}`,
];

function jsonBody(rng: Prng, anthropic: boolean): string {
  const body: Record<string, unknown> = {};
  if (rng.chance(0.9))
    body.model = rng.chance(0.4) ? (anthropic ? 'claude-sonnet-4-5' : 'gpt-4o') : rng.pick(MODEL_VALUES);
  if (rng.chance(0.85))
    body.messages = rng.chance(0.7)
      ? [{ role: rng.pick(['user', 'assistant', '__proto__', 7]), content: rng.pick(CONTENT_VALUES) }]
      : rng.pick(CONTENT_VALUES);
  if (rng.chance(0.7)) body.max_tokens = rng.pick([8, 0, -5, '8', null, 1e9]);
  if (rng.chance(0.4)) body.stream = rng.pick([true, false, 'true', null, 1]);
  return JSON.stringify(body);
}

function chunked(rng: Prng, body: string): { text: string; label: string; stall: boolean } {
  const shape = rng.int(0, 5);
  const bytes = Buffer.from(body, 'utf8').toString('latin1');
  if (shape === 1) return { text: `zz\r\n${bytes}\r\n0\r\n\r\n`, label: 'bad-chunk-size', stall: false };
  if (shape === 2)
    return {
      text: `${bytes.length.toString(16)};ext=${'e'.repeat(rng.int(1, 20_000))}\r\n${bytes}\r\n0\r\n\r\n`,
      label: 'chunk-ext',
      stall: false,
    };
  if (shape === 3) return { text: `${bytes.length.toString(16)}\r\n${bytes}\r\n`, label: 'no-last-chunk', stall: true };
  if (shape === 4)
    return {
      text: `${(bytes.length + 10).toString(16)}\r\n${bytes}\r\n0\r\n\r\n`,
      label: 'chunk-overrun',
      stall: false,
    };
  let text = '';
  for (let at = 0; at < bytes.length;) {
    const size = Math.min(bytes.length - at, rng.int(1, 400));
    text += `${size.toString(16)}\r\n${bytes.slice(at, at + size)}\r\n`;
    at += size;
  }
  return { text: `${text}0\r\n\r\n`, label: 'chunked', stall: false };
}

interface OneRequest {
  text: string;
  labels: string[];
  stall: boolean;
  keepAlive: boolean;
  head: boolean;
  anthropic: boolean;
  proxyPath: boolean;
}

function oneRequest(rng: Prng, keys: FuzzKeys, lastOnSocket: boolean): OneRequest {
  const labels: string[] = [];
  const mutate = (p: number, label: string): boolean => {
    const yes = rng.chance(p);
    if (yes) labels.push(label);
    return yes;
  };
  const path = mutate(0.08, 'odd-path') ? rng.pick(OTHER_PATHS) : rng.pick(PATHS);
  const method = mutate(0.15, 'method')
    ? rng.pick(METHODS)
    : path.includes('models') || path === '/health'
      ? 'GET'
      : 'POST';
  const version = mutate(0.08, 'version') ? rng.pick(VERSIONS) : 'HTTP/1.1';
  const anthropic = path.startsWith('/v1/messages');
  const proxyPath = path.startsWith('/v1') || path.startsWith('/health');
  const headers: string[] = [];
  const host = mutate(0.12, 'host') ? rng.pick(HOSTS) : '127.0.0.1';
  if (host !== null) headers.push(`host: ${host}`);
  if (mutate(0.05, 'dup-host')) headers.push('host: evil.example.com');
  const contentType = mutate(0.1, 'content-type') ? rng.pick(CONTENT_TYPES) : 'application/json';
  if (contentType !== null) headers.push(`content-type: ${contentType}`);
  if (!mutate(0.1, 'no-auth')) {
    const key = mutate(0.1, 'wrong-key') ? 'lw-wrong-key-0000000000000' : keys.good;
    headers.push(anthropic ? `x-api-key: ${key}` : `authorization: Bearer ${key}`);
    if (anthropic) headers.push('anthropic-version: 2023-06-01');
  }
  for (let i = rng.int(0, 2); i > 0; i--) if (mutate(0.25, 'junk-header')) headers.push(rng.pick(JUNK_HEADERS));
  if (mutate(0.03, 'many-headers')) for (let i = 0; i < 150; i++) headers.push(`x-h${i}: ${i}`);

  let body = mutate(0.3, 'raw-body') ? rng.pick(RAW_BODIES) : jsonBody(rng, anthropic);
  if (method === 'GET' || method === 'HEAD') body = rng.chance(0.8) ? '' : body;
  let stall = false;
  let framed: string;
  const bodyBytes = Buffer.byteLength(body);
  if (body !== '' && mutate(0.15, 'te')) {
    const c = chunked(rng, body);
    labels.push(c.label);
    stall = c.stall;
    headers.push('transfer-encoding: chunked');
    framed = c.text;
  } else {
    const shift = mutate(0.12, 'length-mismatch') ? rng.pick([-3, 7, 100]) : 0;
    if (shift > 0) stall = true;
    if (body !== '' || shift !== 0) headers.push(`content-length: ${Math.max(0, bodyBytes + shift)}`);
    framed = Buffer.from(body, 'utf8').toString('latin1');
  }
  const http10 = version === 'HTTP/1.0';
  let keepAlive = !http10;
  if (version === 'HTTP/1.1' && lastOnSocket && !mutate(0.2, 'keep-alive')) {
    headers.push('connection: close');
    keepAlive = false;
  }
  const line = version === '' ? `${method} ${path}` : `${method} ${path} ${version}`;
  return {
    text: `${line}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${framed}`,
    labels,
    stall,
    keepAlive,
    head: method === 'HEAD',
    anthropic,
    proxyPath,
  };
}

/** One fuzz case: one request (sometimes pipelined with more), sometimes cut short, sometimes sent slowly. */
export function generateCase(rng: Prng, keys: FuzzKeys): FuzzCase {
  const count = rng.chance(0.1) ? rng.int(2, 3) : 1;
  const requests = Array.from({ length: count }, (_, i) => oneRequest(rng, keys, i === count - 1));
  let text = requests.map((r) => r.text).join('');
  const labels = requests.flatMap((r) => r.labels);
  if (count > 1) labels.push(`pipelined-${count}`);
  let stall = requests.some((r) => r.stall);
  let headWhole = true;
  if (rng.chance(0.08)) {
    const cut = rng.int(0, text.length - 1);
    // Cut inside the first head, nothing names the endpoint yet: any known error shape will do.
    headWhole = cut >= text.indexOf('\r\n\r\n') + 4;
    text = text.slice(0, cut);
    labels.push('truncated');
    stall = true;
  }
  const bytes = Buffer.from(text, 'latin1');
  const slow = rng.chance(0.1);
  const parts: Buffer[] = [];
  if (slow) {
    labels.push('slow');
    for (let at = 0; at < bytes.length;) {
      const size = rng.int(1, Math.max(1, Math.ceil(bytes.length / 4)));
      parts.push(bytes.subarray(at, at + size));
      at += size;
    }
  } else {
    parts.push(bytes);
  }
  const anyProxy = requests.every((r) => r.proxyPath);
  return {
    label: labels.join(',') || 'plain',
    parts,
    gapMs: slow ? rng.int(5, 60) : 0,
    requests: count,
    bodiless: requests.map((r) => r.head),
    stall,
    keepAlive: requests[count - 1]?.keepAlive ?? false,
    anthropic: headWhole && (requests[0]?.anthropic ?? false),
    proxyPath: anyProxy,
    empty: bytes.length === 0,
  };
}
