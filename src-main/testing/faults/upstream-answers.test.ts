import { afterEach, describe, expect, it } from 'vitest';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../start-leeway';

/*
 * Issue 21 §1, §5, §6 through the real proxy: an upstream 200 whose body is an error object is
 * learned as the status it stands for and failed over; no connection secret an upstream echoes
 * reaches the client (headers, error bodies, error events); every upstream error reaches the client
 * in the client's own format.
 */
const CLAUDE = 'claude-sonnet-4-6';
const GPT = 'gpt-4o';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

async function upstream(format: 'anthropic' | 'openai', name: string): Promise<FakeUpstream> {
  const u = await startFakeUpstream({ format, name });
  upstreams.push(u);
  return u;
}

/** Two connections of `format` behind the combo `main` (primary first); the model names the combo. */
async function pair(format: 'anthropic' | 'openai') {
  const primary = await upstream(format, 'primary');
  const backup = await upstream(format, 'backup');
  const model = format === 'anthropic' ? CLAUDE : GPT;
  const entry = format === 'anthropic' ? anthropicConnection : openaiConnection;
  leeway = await startLeeway({
    connections: [
      entry('primary', primary.url, { models: [model], priority: 1 }),
      entry('backup', backup.url, { models: [model], priority: 2 }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'primary', model },
          { connection: 'backup', model },
        ],
      },
    ],
  });
  return { primary, backup, h: leeway };
}

async function single(format: 'anthropic' | 'openai') {
  const only = await upstream(format, 'only');
  const model = format === 'anthropic' ? CLAUDE : GPT;
  const entry = format === 'anthropic' ? anthropicConnection : openaiConnection;
  leeway = await startLeeway({ connections: [entry('only', only.url, { models: [model] })] });
  return { only, h: leeway };
}

function messages(h: RunningLeeway, model: string, more: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...more }),
  });
}

function chat(h: RunningLeeway, model: string, more: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${h.key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...more }),
  });
}

async function newestRow(h: RunningLeeway, match: (row: RequestLogEntry) => boolean): Promise<RequestLogEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const list = await h.core.router.call('activity.list', { limit: 50 });
    const row = list.ok ? (list.value as RequestLogEntry[]).find(match) : undefined;
    if (row) return row;
    if (Date.now() > deadline) throw new Error('no matching activity row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function cooling(h: RunningLeeway): Promise<string[]> {
  const list = await h.core.router.call('cooldowns.list', {});
  if (!list.ok) throw new Error(list.error.message);
  const snapshot = list.value as CooldownSnapshot;
  const names = new Set([
    ...snapshot.connections.filter((c) => c.retryAfterMs !== null).map((c) => c.name),
    ...snapshot.models.map((m) => m.connection),
  ]);
  return [...names].sort();
}

const ANTHROPIC_RATE_LIMIT = {
  type: 'error',
  error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
};
const ANTHROPIC_OVERLOADED = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
const OPENAI_RATE_LIMIT = {
  error: {
    message: 'Rate limit reached for gpt-4o on requests per min (RPM): Limit 3, Used 3, Requested 1.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
};

describe('an upstream 200 whose body is an error object (issue 21 §1)', () => {
  it('issue 21 §1 PROD-16: an Anthropic 200 with {"type":"error"} is learned as its 429 and served by the next target', async () => {
    const { primary, backup, h } = await pair('anthropic');
    primary.enqueue({ kind: 'status', status: 200, body: ANTHROPIC_RATE_LIMIT });
    backup.enqueue({ kind: 'ok', text: 'from the backup' });
    const res = await messages(h, 'main');
    const body = (await res.json()) as { content: { text: string }[] };
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('backup');
    expect(res.headers.get('x-leeway-failover')).toBe('primary=429');
    expect(body.content[0]?.text).toBe('from the backup');
    expect(await cooling(h)).toEqual(['primary']);
    const row = await newestRow(h, (r) => r.model === 'main');
    expect((row.attempts ?? []).map((a) => [a.connection, a.status])).toEqual([
      ['primary', 429],
      ['backup', 200],
    ]);
  });

  it('issue 21 §1 PROD-16: an OpenAI 200 with {"error":{…}} is learned as its 429 and served by the next target', async () => {
    const { primary, backup, h } = await pair('openai');
    primary.enqueue({ kind: 'status', status: 200, body: OPENAI_RATE_LIMIT });
    backup.enqueue({ kind: 'ok', text: 'from the backup' });
    const res = await chat(h, 'main');
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=429');
    expect(body.choices[0]?.message.content).toBe('from the backup');
    expect(await cooling(h)).toEqual(['primary']);
  });

  it('issue 21 §1: a translated 200 with an error body is no empty success: it fails over, and alone it is the error it stands for', async () => {
    const { primary, backup, h } = await pair('anthropic');
    primary.enqueue({ kind: 'status', status: 200, body: ANTHROPIC_OVERLOADED });
    backup.enqueue({ kind: 'ok', text: 'translated from the backup' });
    const res = await chat(h, 'main');
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=529');
    expect(body.choices[0]?.message.content).toBe('translated from the backup');

    // Both answer with an error body: the client gets the status it stands for, in its own format
    // (no cooldown hold: an error body carries no Retry-After, so its short cooldown would be waited out).
    await h.core.router.call('resilience.updateSettings', { comboCooldownWait: { enabled: false } });
    await h.core.router.call('cooldowns.clear', { target: 'all' });
    primary.enqueue({ kind: 'status', status: 200, body: ANTHROPIC_RATE_LIMIT });
    backup.enqueue({ kind: 'status', status: 200, body: ANTHROPIC_RATE_LIMIT });
    const failed = await chat(h, 'main');
    const error = (await failed.json()) as Record<string, unknown>;
    expect(failed.status).toBe(429);
    expect(error).not.toHaveProperty('type');
    expect(error).toMatchObject({ error: { message: expect.stringContaining('per-minute rate limit') as string } });
  });

  it('issue 21 §1: the only target answering 200 with an error body gives the client that status, and Activity says so', async () => {
    const { only, h } = await single('anthropic');
    await h.core.router.call('resilience.updateSettings', { comboCooldownWait: { enabled: false } });
    only.enqueue({ kind: 'status', status: 200, body: ANTHROPIC_RATE_LIMIT });
    const res = await messages(h, CLAUDE);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(429);
    expect(body).toEqual(ANTHROPIC_RATE_LIMIT);
    const row = await newestRow(h, (r) => r.model === CLAUDE);
    expect(row.status).toBe(429);
    expect(row.errorCode).not.toBeNull();
  });

  it('issue 21 §1: a 200 whose body merely mentions "error" in its content is still a success', async () => {
    const { only, h } = await single('openai');
    only.enqueue({ kind: 'ok', text: '{"error":{"message":"this is the model quoting JSON"}}' });
    const res = await chat(h, GPT);
    expect(res.status).toBe(200);
    expect(await cooling(h)).toEqual([]);
  });
});

describe('secrets an upstream echoes never reach the client (issue 21 §5)', () => {
  const SECRET = 'sk-ant-secret-only-0000';

  it('issue 21 §5 PROD-18: a key echoed in the headers of a success or an error is not relayed', async () => {
    const { only, h } = await single('anthropic');
    only.enqueue({ kind: 'ok', echoKeyHeader: 'x-echo-key' });
    const ok = await messages(h, CLAUDE);
    await ok.text();
    expect(ok.status).toBe(200);
    expect([...ok.headers.values()].join('\n')).not.toContain(SECRET);
    expect(ok.headers.get('x-echo-key')).toBe('[redacted]');

    only.enqueue({ kind: 'status', status: 400, echoKeyHeader: 'x-echo-key', echoKey: true });
    const bad = await messages(h, CLAUDE);
    const text = await bad.text();
    expect(bad.status).toBe(400);
    expect([...bad.headers.values()].join('\n')).not.toContain(SECRET);
    expect(text).not.toContain(SECRET);

    only.enqueue({ kind: 'ok', echoKeyHeader: 'x-echo-key' });
    const stream = await messages(h, CLAUDE, { stream: true });
    await stream.text();
    expect([...stream.headers.values()].join('\n')).not.toContain(SECRET);
  });

  it('issue 21 §5 PROD-18: a key echoed in an error event after the stream started is not relayed', async () => {
    const { only, h } = await single('anthropic');
    only.enqueue({ kind: 'stream-error', after: 2, echoKey: true });
    const res = await messages(h, CLAUDE, { stream: true });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('event: error');
    expect(text).not.toContain(SECRET);
  });

  it('issue 21 §5 PROD-18: a key echoed in an error event of a translated stream is not relayed', async () => {
    const { only, h } = await single('anthropic');
    only.enqueue({ kind: 'stream-error', after: 2, echoKey: true });
    const res = await chat(h, CLAUDE, { stream: true });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('error');
    expect(text).not.toContain(SECRET);
  });
});

describe('upstream errors reach the client in its own format (issue 21 §6)', () => {
  for (const status of [400, 401, 429, 500, 529]) {
    it(`issue 21 §6: an Anthropic ${status} reaches an OpenAI client as an OpenAI error body`, async () => {
      const { only, h } = await single('anthropic');
      // A long Retry-After: no cooldown hold, the error is the answer.
      only.enqueue({ kind: 'status', status, headers: { 'retry-after': '600' } });
      const res = await chat(h, CLAUDE);
      const body = (await res.json()) as { error?: { message?: unknown; type?: unknown } };
      expect(res.status).toBe(status);
      expect(body).not.toHaveProperty('type');
      expect(typeof body.error?.message).toBe('string');
      expect(typeof body.error?.type).toBe('string');
      expect(body.error).toHaveProperty('code');
    });
  }

  it('issue 21 §6: an OpenAI 429 reaches an Anthropic client as an Anthropic error body', async () => {
    const { only, h } = await single('openai');
    only.enqueue({ kind: 'status', status: 429, body: OPENAI_RATE_LIMIT, headers: { 'retry-after': '600' } });
    const res = await messages(h, GPT);
    const body = (await res.json()) as { type?: unknown; error?: { type?: unknown; message?: unknown } };
    expect(res.status).toBe(429);
    expect(body.type).toBe('error');
    expect(body.error?.type).toBe('rate_limit_error');
    expect(body.error?.message).toEqual(expect.stringContaining('Rate limit reached'));
  });
});
