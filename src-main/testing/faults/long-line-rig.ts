import { spawn, type ChildProcess } from 'node:child_process';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../start-leeway';

/**
 * A rig for one huge SSE line on a translated stream, through the real proxy (issue 21 §2). The
 * upstream and the big stream's reader run in child processes (plain node:http), so this process's
 * event loop carries only Leeway's own work and the small requests: what is measured. The upstream
 * writes 16 KiB pieces, honouring backpressure, at most 32 KiB a millisecond (a fast link, like a
 * real socket, not one write). Models: `*-big` answer one line of `lineBytes`, `*-over` one of
 * `overBytes` after a first small event, `*-overfirst` the same line first, `*-small` a small JSON
 * answer.
 */

/** `client->connection`; the same format on both sides is the untranslated passthrough, for comparison. */
export type Direction =
  'anthropic->openai' | 'openai->anthropic' | 'responses->openai' | 'responses->anthropic' | 'anthropic->anthropic';

/** What the reader child saw of the big stream. */
export interface BigStream {
  status: number;
  size: number;
  /** The longest line of the client's stream, in bytes (the huge delta, translated). */
  longestLine: number;
  /** The first 120 bytes of each of the stream's last 40 lines: its last events' names and starts. */
  heads: string[];
  /** The stream's last bytes. */
  tail: string;
  elapsedMs: number;
}

const UPSTREAM = `
const http = require('node:http');
const LINE = Number(process.env.LINE_BYTES);
const OVER = Number(process.env.OVER_BYTES);
const chat = (delta, finish, extra) => 'data: ' + JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra }) + '\\n\\n';
const ant = (type, data) => 'event: ' + type + '\\ndata: ' + JSON.stringify({ type, ...data }) + '\\n\\n';
/** One data line of exactly \`bytes\` bytes (with its newline), its text all 'a'. */
function hugeLine(head, tail, bytes) {
  const line = Buffer.alloc(bytes, 'a');
  line.write(head);
  line.write(tail, bytes - Buffer.byteLength(tail));
  return line;
}
function bigBody(path, bytes) {
  if (path.endsWith('/chat/completions'))
    return [
      Buffer.from(chat({ role: 'assistant', content: '' }, null)),
      hugeLine('data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"', '"},"finish_reason":null}]}\\n', bytes),
      Buffer.from('\\n' + chat({}, 'stop') + 'data: ' + JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 5, completion_tokens: 77, total_tokens: 82 } }) + '\\n\\ndata: [DONE]\\n\\n'),
    ];
  return [
    Buffer.from(ant('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }) + ant('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })),
    hugeLine('event: content_block_delta\\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"', '"}}\\n', bytes),
    Buffer.from('\\n' + ant('content_block_stop', { index: 0 }) + ant('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 77 } }) + ant('message_stop', {})),
  ];
}
function smallBody(path) {
  if (path.endsWith('/chat/completions'))
    return JSON.stringify({ id: 'c2', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  return JSON.stringify({ id: 'msg_s', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
}
const server = http.createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', async () => {
    const model = JSON.parse(text).model;
    if (model.endsWith('-small')) return res.writeHead(200, { 'content-type': 'application/json' }).end(smallBody(req.url));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let n = 0;
    let wake = null;
    res.on('close', () => {
      console.log(JSON.stringify({ model, finished: res.writableFinished }));
      if (wake) wake();
    });
    const parts = bigBody(req.url, model.endsWith('-big') ? LINE : OVER);
    // The huge line first: nothing can be committed before it.
    if (model.endsWith('-overfirst')) parts.shift();
    for (const part of parts) {
      for (let at = 0; at < part.length; at += 16384, n++) {
        if (res.destroyed) return;
        if (!res.write(part.subarray(at, at + 16384))) await new Promise((r) => { wake = r; res.once('drain', r); });
        if (n % 2 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    }
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;

const READER = `
const http = require('node:http');
const [url, key, path, body] = process.argv.slice(1);
const started = performance.now();
const req = http.request(url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key, 'anthropic-version': '2023-06-01' } }, (res) => {
  let size = 0, line = 0, longestLine = 0, head = '', heads = [], tail = Buffer.alloc(0);
  const see = (c, from, to) => {
    line += to - from;
    if (head.length < 120) head += c.toString('latin1', from, Math.min(to, from + 120 - head.length));
  };
  res.on('data', (c) => {
    size += c.length;
    for (let at = 0; ; ) {
      const nl = c.indexOf(10, at);
      if (nl === -1) { see(c, at, c.length); break; }
      see(c, at, nl);
      longestLine = Math.max(longestLine, line);
      if (head !== '') heads.push(head);
      if (heads.length > 40) heads.shift();
      line = 0;
      head = '';
      at = nl + 1;
    }
    tail = Buffer.concat([tail, c.subarray(Math.max(0, c.length - 4096))]).subarray(-4096);
  });
  res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, size, longestLine, heads, tail: tail.toString('utf8'), elapsedMs: performance.now() - started })));
});
req.end(body);`;

/** A node child running `source`; `lines` collects its stdout lines as they come. */
function runNode(source: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['-e', source, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
        lines.push(out.slice(0, nl));
        out = out.slice(nl + 1);
      }
      if (lines[0] !== undefined) resolve(lines[0]);
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before answering`)));
  });
  return { child, firstLine, lines };
}

/** The client's path and body for a model in the client's format. */
export function clientRequest(direction: Direction, model: string, stream: boolean): { path: string; body: string } {
  const client = direction.split('->')[0];
  if (client === 'anthropic')
    return {
      path: '/v1/messages',
      body: JSON.stringify({ model, max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] }),
    };
  if (client === 'openai')
    return {
      path: '/v1/chat/completions',
      // With include_usage the usage after the huge line reaches the client's stream, and so the log.
      body: JSON.stringify({
        model,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    };
  return { path: '/v1/responses', body: JSON.stringify({ model, stream, input: 'hi' }) };
}

/** The model family a direction's upstream serves: `gpt-*` on the OpenAI-compatible connection, `claude-*` on Anthropic's. */
export type Size = 'big' | 'over' | 'overfirst' | 'small';

export function modelFor(direction: Direction, size: Size): string {
  return `${direction.endsWith('openai') ? 'gpt' : 'claude'}-${size}`;
}

export interface LongLineRig {
  leeway: RunningLeeway;
  /** Streams one big answer through the proxy from a child process. */
  bigStream(direction: Direction, size: Exclude<Size, 'small'>): { done: Promise<BigStream>; kill(): void };
  /** One small non-stream request of `direction` from this process: its status and latency in ms. */
  askSmall(direction: Direction): Promise<{ status: number; ms: number }>;
  /** The newest activity row id so far: rows of what a test does next come after it. */
  lastRowId(): Promise<number>;
  /** The activity row for `model` newer than `after`, once the relay has settled it. */
  rowFor(model: string, after: number): Promise<Record<string, unknown>>;
  /** How each big answer ended on the upstream's side (`finished: false`: its socket was closed early). */
  upstreamEnds(): { model: string; finished: boolean }[];
  stop(): Promise<void>;
}

export async function startLongLineRig(lineBytes: number, overBytes: number): Promise<LongLineRig> {
  const upstream = runNode(UPSTREAM, [], { LINE_BYTES: String(lineBytes), OVER_BYTES: String(overBytes) });
  const port = await upstream.firstLine;
  const url = `http://127.0.0.1:${port}`;
  const leeway = await startLeeway({
    connections: [
      anthropicConnection('an', url, { models: ['claude-big', 'claude-over', 'claude-overfirst', 'claude-small'] }),
      openaiConnection('oa', url, { models: ['gpt-big', 'gpt-over', 'gpt-overfirst', 'gpt-small'] }),
    ],
  });
  /** The big streams' readers, ended with the rig (one still reading when a test timed out). */
  const readers: ChildProcess[] = [];
  const rows = async (): Promise<Record<string, unknown>[]> => {
    const list = await leeway.core.router.call('activity.list', {});
    return list.ok ? (list.value as Record<string, unknown>[]) : [];
  };
  return {
    leeway,
    lastRowId: async () => Math.max(0, ...(await rows()).map((r) => Number(r.id))),
    async rowFor(model, after) {
      for (let i = 0; i < 200; i++) {
        const row = (await rows()).find((r) => r.model === model && Number(r.id) > after);
        if (row) return row;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no activity row for ${model}`);
    },
    bigStream(direction, size) {
      const { path, body } = clientRequest(direction, modelFor(direction, size), true);
      const reader = runNode(READER, [leeway.url, leeway.key, path, body]);
      readers.push(reader.child);
      return {
        done: reader.firstLine.then((line) => JSON.parse(line) as BigStream),
        kill: () => reader.child.kill(),
      };
    },
    async askSmall(direction) {
      const { path, body } = clientRequest(direction, modelFor(direction, 'small'), false);
      const started = performance.now();
      try {
        const res = await fetch(`${leeway.url}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${leeway.key}`,
            'anthropic-version': '2023-06-01',
          },
          body,
        });
        await res.text();
        return { status: res.status, ms: performance.now() - started };
      } catch {
        // A reset counts as a failure (status 0), not as a crash of the measurement.
        return { status: 0, ms: performance.now() - started };
      }
    },
    upstreamEnds: () => upstream.lines.slice(1).map((line) => JSON.parse(line) as { model: string; finished: boolean }),
    async stop() {
      for (const reader of readers) reader.kill();
      await leeway.stop();
      upstream.child.kill();
    },
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Small requests sent on a fixed schedule (one every `everyMs`) until `until` settles, each timed
 * from when it was due, not from when a late timer got round to it: a stalled event loop delays the
 * timers too, and timing from the send would hide the stall (coordinated omission).
 */
export async function smallLatenciesWhile(
  rig: LongLineRig,
  direction: Direction,
  until: Promise<unknown>,
  everyMs: number,
): Promise<{ ms: number[]; failed: number }> {
  let running = true;
  void until.finally(() => (running = false)).catch(() => undefined);
  const started = performance.now();
  const pending: Promise<{ status: number; ms: number }>[] = [];
  for (let i = 0; running; i++) {
    const due = started + i * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!running) break;
    pending.push(rig.askSmall(direction).then(({ status }) => ({ status, ms: performance.now() - due })));
  }
  const answers = await Promise.all(pending);
  return { ms: answers.map((a) => a.ms), failed: answers.filter((a) => a.status !== 200).length };
}
