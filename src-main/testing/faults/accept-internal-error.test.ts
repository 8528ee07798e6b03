/**
 * Issue 21 §3, the other half: whatever throws on the request path (only a bug can) is logged with
 * its stack, redacted, answered as a typed 500 in the client's format and logged in Activity as
 * internal_error. Faults are injected into three places of the real proxy: before routing (the body
 * parse), inside a model request (the attempt stage) and synchronously in the request handler.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Guards from '../../proxy/accept/guards';
import type * as ParseModelBody from '../../proxy/accept/parse-model-body';
import { LOGS_DIR } from '../../observability/observability';
import { LOG_FILE_NAME } from '../../observability/rotating-file';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../start-leeway';

/** The connection's own key, which a careless error message could carry into the log. */
const SECRET = 'sk-ant-secret-a1-0000';

vi.mock('../../proxy/accept/parse-model-body', async (importOriginal) => {
  const actual = await importOriginal<typeof ParseModelBody>();
  return {
    ...actual,
    parseModelBody: (raw: Buffer) => {
      if (raw.includes('THROW_IN_PARSE')) throw new Error(`injected parse fault near ${SECRET}`);
      return actual.parseModelBody(raw);
    },
    bodyForModel: (raw: Buffer, parsed: ParseModelBody.ModelBody, model: string) => {
      if (raw.includes('THROW_IN_ATTEMPT')) throw new RangeError(`injected attempt fault near ${SECRET}`);
      // A message quoting a whole body, with a secret where a plain cut would split it.
      if (raw.includes('THROW_LONG')) throw new Error(`long fault ${'w '.repeat(1990)}${SECRET} ${'x'.repeat(8_000)}`);
      return actual.bodyForModel(raw, parsed, model);
    },
  };
});

vi.mock('../../proxy/accept/guards', async (importOriginal) => {
  const actual = await importOriginal<typeof Guards>();
  return {
    ...actual,
    localKeyOf: (headers: Parameters<typeof actual.localKeyOf>[0]) => {
      if (headers['x-test-throw'] !== undefined) throw new TypeError('injected synchronous fault');
      return actual.localKeyOf(headers);
    },
  };
});

let upstream: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic' });
  h = await startLeeway({
    connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-5'] })],
    combos: [{ name: 'main', targets: [{ connection: 'a1', model: 'claude-sonnet-4-5' }] }],
  });
});

afterAll(async () => {
  await h.stop();
  await upstream.close();
});

interface ActivityRow {
  status: number;
  errorCode: string | null;
  endpoint: string;
}

async function newestRow(): Promise<ActivityRow | undefined> {
  const list = await h.core.router.call('activity.list', { limit: 1 });
  return list.ok ? (list.value as ActivityRow[])[0] : undefined;
}

const post = (path: string, content: string, extra: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01', ...extra },
    body: JSON.stringify({ model: 'main', max_tokens: 8, messages: [{ role: 'user', content }] }),
  });

const fileLog = () => readFileSync(join(h.dataDir, LOGS_DIR, LOG_FILE_NAME), 'utf8');

describe('issue 21 §3: an unexpected throw on the request path is told, logged and recorded', () => {
  it('issue 21 §3, PROD-17: a throw inside a model request (the attempt) → typed 500 in Anthropic format, stack in the log, row internal_error (not client_closed)', async () => {
    const res = await post('/v1/messages', 'THROW_IN_ATTEMPT');
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'api_error' },
      leeway: { code: 'internal_error' },
    });
    expect(await newestRow()).toMatchObject({ status: 500, errorCode: 'internal_error', endpoint: 'messages' });
    const line = h.logs.find((l) => l.includes('injected attempt fault'));
    expect(line).toContain('internal error on POST /v1/messages');
    expect(line).toMatch(/RangeError: injected attempt fault[^\n]*\n\s+at /);
  });

  it('issue 21 §3: a throw before routing (the body parse) on Chat Completions → typed 500 in OpenAI format, row internal_error', async () => {
    const res = await post('/v1/chat/completions', 'THROW_IN_PARSE', { 'anthropic-version': '' });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { type: 'server_error', code: 'internal_error' } });
    expect(await newestRow()).toMatchObject({ status: 500, errorCode: 'internal_error', endpoint: 'chat_completions' });
    expect(h.logs.some((l) => l.includes('injected parse fault') && l.includes('\n    at '))).toBe(true);
  });

  it('issue 21 §3: a synchronous throw in the request handler is answered (the process lives on) and recorded', async () => {
    const res = await post('/v1/messages', 'hi', { 'x-test-throw': '1' });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ type: 'error', leeway: { code: 'internal_error' } });
    expect(await newestRow()).toMatchObject({ status: 500, errorCode: 'internal_error' });
    const after = await post('/v1/messages', 'still serving');
    expect(after.status).toBe(200);
    await after.text();
  });

  it('issue 21 §3: a huge error message is logged capped, cut between words (never through a secret)', async () => {
    const res = await post('/v1/messages', 'THROW_LONG');
    expect(res.status).toBe(500);
    const line = h.logs.find((l) => l.includes('long fault'));
    expect(line?.length).toBeLessThan(4_200);
    expect(line).not.toContain(SECRET.slice(0, 8));
  });

  it('issue 21 §3, PROD-18: the logged stack never carries a connection secret (the core logger redacts it)', async () => {
    await post('/v1/messages', 'THROW_IN_ATTEMPT');
    await expect.poll(() => fileLog().includes('injected attempt fault'), { timeout: 5_000 }).toBe(true);
    expect(fileLog()).not.toContain(SECRET);
    expect(fileLog()).toContain('injected attempt fault near [redacted]');
  });
});
