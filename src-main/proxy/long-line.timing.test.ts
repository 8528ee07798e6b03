import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicEvent } from '../testing/sse-frames';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

const LINE_BYTES = 32 * 1024 * 1024;

/** One 32 MB text delta as a single SSE line, then a normal usage event and the stop. */
function hugeStream(): Buffer {
  const head =
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"';
  const tail = '"}}\n\n';
  const line = Buffer.alloc(LINE_BYTES, 'a');
  line.write(head);
  line.write(tail, LINE_BYTES - tail.length);
  const end =
    anthropicEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 77 },
    }) + anthropicEvent('message_stop', { type: 'message_stop' });
  return Buffer.concat([line, Buffer.from(end)]);
}

const SMALL = JSON.stringify({
  id: 'msg_s',
  type: 'message',
  role: 'assistant',
  model: 'claude-small',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

/**
 * The upstream and the big stream's reader run in child processes (plain node:http), so this
 * process's event loop carries only Leeway's own work and the small requests: what is measured.
 * The upstream writes the body (read from stdin) in 16 KiB pieces, honouring backpressure, at
 * most 32 KiB a millisecond: a fast link, not a flood that only measures how busy the machine is.
 */
const UPSTREAM = `
const http = require('node:http');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const body = Buffer.concat(chunks);
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', async () => {
      if (JSON.parse(text).model !== 'claude-big') return res.writeHead(200, { 'content-type': 'application/json' }).end(process.env.SMALL);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (let at = 0, n = 1; at < body.length; at += 16384, n++) {
        if (!res.write(body.subarray(at, at + 16384))) await new Promise((r) => res.once('drain', r));
        if (n % 2 === 0) await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
});`;

const READER = `
const http = require('node:http');
const hash = require('node:crypto').createHash('sha256');
const [url, key] = process.argv.slice(1);
const req = http.request(url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' } }, (res) => {
  let size = 0;
  res.on('data', (c) => { hash.update(c); size += c.length; });
  res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, size, digest: hash.digest('hex') })));
});
req.end(JSON.stringify({ model: 'claude-big', max_tokens: 8, stream: true, messages: [{ role: 'user', content: 'hi' }] }));`;

function runNode(
  source: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, ['-e', source, ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before answering`)));
  });
  return { child, firstLine };
}

let body: Buffer;
let upstream: ChildProcess;
let h: RunningLeeway;

beforeAll(async () => {
  body = hugeStream();
  const started = runNode(UPSTREAM, [], { SMALL });
  upstream = started.child;
  started.child.stdin?.end(body);
  const port = await started.firstLine;
  h = await startLeeway({
    connections: [anthropicConnection('a1', `http://127.0.0.1:${port}`, { models: ['claude-big', 'claude-small'] })],
  });
});

afterAll(async () => {
  await h.stop();
  upstream.kill();
});

async function askSmall(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-small', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(res.status).toBe(200);
  await res.text();
  return performance.now() - started;
}

describe('a huge stream line through the real proxy', () => {
  it('ISSUE-8: a 32 MB SSE line arrives intact while other clients are answered promptly and the loop never stalls', async () => {
    await askSmall(); // warm: sockets and code paths are ready before anything is measured
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const reader = runNode(READER, [h.url, h.key]);
    let streaming = true;
    const relayed = reader.firstLine.finally(() => (streaming = false));
    const latencies: number[] = [];
    while (streaming && performance.now() - started < 15_000) {
      latencies.push(await askSmall());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Before the fix the tap rescanned the growing line on every chunk: tens of seconds, loop frozen.
    const line = await Promise.race([
      relayed,
      new Promise<null>((resolve) => setTimeout(resolve, 15_000 - (performance.now() - started), null)),
    ]);
    const elapsed = performance.now() - started;
    loop.disable();
    reader.child.kill();
    expect(line, 'the 32 MB stream did not finish within 15 s').not.toBeNull();
    const got = JSON.parse(line ?? '{}') as { status: number; size: number; digest: string };
    expect(got.status).toBe(200);
    expect(got.size).toBe(body.length);
    expect(got.digest).toBe(createHash('sha256').update(body).digest('hex'));
    expect(elapsed).toBeLessThan(10_000);
    expect(latencies.length).toBeGreaterThan(0);
    // Well under 100 ms for the typical small request while the line streams; before the fix the loop
    // froze for over a second at a time. The max allows for a noisy shared machine, not for a stall.
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100);
    expect(sorted[sorted.length - 1]).toBeLessThan(400);
    expect(loop.max / 1e6).toBeLessThan(250);
    // Usage after the huge line is still read and logged.
    const list = await h.core.router.call('activity.list', {});
    const rows = list.ok ? (list.value as { model: string; outputTokens: number | null }[]) : [];
    expect(rows.find((r) => r.model === 'claude-big')?.outputTokens).toBe(77);
  }, 30_000);
});
