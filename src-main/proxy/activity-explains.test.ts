import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityCsv, RequestLogEntry } from '../../src-shared/domain/request-log';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/**
 * Issue 13 §3 through the real proxy: refused requests get a row with their reason and never the
 * key they carried; a failover (and a cooldown hold) lists every attempt with status and timing.
 */
const MODEL = 'claude-sonnet-4-5';
const WRONG_KEY = 'lw-wrong-key-must-never-be-stored-0123456789';
const BODY_MARKER = 'body-content-must-never-be-stored';

let primary: FakeUpstream;
let backup: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  primary = await startFakeUpstream({ format: 'anthropic', name: 'primary' });
  backup = await startFakeUpstream({ format: 'anthropic', name: 'backup' });
  h = await startLeeway({
    connections: [
      anthropicConnection('primary', primary.url, { models: [MODEL], priority: 1 }),
      anthropicConnection('backup', backup.url, { models: [MODEL], priority: 2 }),
      // Nothing listens on port 9 (discard) on loopback: every request to it is refused at connect.
      anthropicConnection('gone', 'http://127.0.0.1:9', { models: [MODEL], priority: 3 }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'primary', model: MODEL },
          { connection: 'backup', model: MODEL },
        ],
      },
      {
        name: 'gone-first',
        targets: [
          { connection: 'gone', model: MODEL },
          { connection: 'backup', model: MODEL },
        ],
      },
    ],
  });
  await h.core.router.call('settings.update', { maxBodyBytes: 4096 });
});

afterAll(async () => {
  await h.stop();
  await primary.close();
  await backup.close();
});

function post(path: string, body: string, key: string | null = h.key): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  if (key !== null) headers['x-api-key'] = key;
  return fetch(`${h.url}${path}`, { method: 'POST', headers, body });
}

const message = (model: string, text = 'hi') =>
  JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: text }] });

async function rows(query: Record<string, unknown> = {}): Promise<RequestLogEntry[]> {
  const list = await h.core.router.call('activity.list', { limit: 100, ...query });
  if (!list.ok) throw new Error(list.error.message);
  return list.value as RequestLogEntry[];
}

/** Rows are written as a request ends, just after its answer: poll briefly for the one expected. */
async function newestRow(match: (row: RequestLogEntry) => boolean): Promise<RequestLogEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const row = (await rows()).find(match);
    if (row) return row;
    if (Date.now() > deadline) throw new Error('no matching activity row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Activity that explains, through the proxy (issue 13 §3)', () => {
  it('ISSUE-13 PROD-18: a wrong key and a missing key are logged as 401 unauthorized with no key at all', async () => {
    const wrong = await post('/v1/messages', message(MODEL), WRONG_KEY);
    expect(wrong.status).toBe(401);
    const missing = await post('/v1/messages', message(MODEL), null);
    expect(missing.status).toBe(401);
    const refused = (await rows({ search: 'unauthorized' })).slice(0, 2);
    expect(refused.map((r) => [r.status, r.errorCode, r.keyName, r.endpoint, r.connection])).toEqual([
      [401, 'unauthorized', null, 'messages', null],
      [401, 'unauthorized', null, 'messages', null],
    ]);
    expect(refused.map((r) => r.errorMessage)).toEqual([
      'Missing local API key: send it as x-api-key or Authorization: Bearer',
      'Invalid local API key',
    ]);
    expect(JSON.stringify(await rows())).not.toContain(WRONG_KEY);
    expect(primary.requests).toHaveLength(0);
  });

  it('ISSUE-13 PROD-18: an unknown model is logged as 404 model_not_found under its key name, never the key', async () => {
    const res = await post('/v1/messages', message('no-such-model'));
    expect(res.status).toBe(404);
    const row = await newestRow((r) => r.model === 'no-such-model');
    expect(row).toMatchObject({ status: 404, errorCode: 'model_not_found', keyName: 'test', connection: null });
    expect(row.attempts).toEqual([]);
    expect(JSON.stringify(row)).not.toContain(h.key);
  });

  it('ISSUE-13 PROD-18: malformed JSON, a body over the limit and an unknown path are logged with a reason, no body', async () => {
    expect((await post('/v1/messages', `{"model": "${BODY_MARKER}`)).status).toBe(400);
    expect((await post('/v1/messages', message(MODEL, `${BODY_MARKER} ${'x'.repeat(8_000)}`))).status).toBe(413);
    expect((await post('/v1/embeddings', message(MODEL))).status).toBe(404);
    const [unknownPath, tooLarge, malformed] = await rows();
    expect(malformed).toMatchObject({
      status: 400,
      errorCode: 'invalid_json',
      errorMessage: 'The request body is not valid JSON',
      keyName: 'test',
      model: null,
    });
    expect(tooLarge).toMatchObject({ status: 413, errorCode: 'body_too_large', keyName: 'test', endpoint: 'messages' });
    expect(unknownPath).toMatchObject({
      status: 404,
      errorCode: 'not_found',
      endpoint: '/v1/embeddings',
      keyName: null,
    });
    expect(JSON.stringify(await rows())).not.toContain(BODY_MARKER);
  });

  it('ISSUE-13 PROD-16: a failover lists both attempts with status, timing, the model sent and the headers that mattered', async () => {
    primary.enqueue({
      kind: 'status',
      status: 429,
      headers: {
        'retry-after': '30',
        'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:30Z',
        'set-cookie': 'session=must-not-be-kept',
      },
    });
    backup.enqueue({ kind: 'ok', text: 'from the backup' });
    const res = await post('/v1/messages', message('main'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=429');
    const row = await newestRow((r) => r.model === 'main');
    expect(row).toMatchObject({ connection: 'backup', status: 200, upstreamModel: MODEL });
    expect(row.failover).toEqual([{ connection: 'primary', status: 429, reason: expect.any(String) as string }]);
    const attempts = row.attempts ?? [];
    expect(attempts.map((a) => [a.connection, a.status, a.upstreamModel])).toEqual([
      ['primary', 429, MODEL],
      ['backup', 200, MODEL],
    ]);
    expect(attempts[1]?.reason).toBe('served');
    for (const attempt of attempts) expect(attempt.ms).toBeGreaterThanOrEqual(0);
    expect(attempts[0]?.headers).toEqual({
      'retry-after': '30',
      'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:30Z',
      'request-id': expect.stringMatching(/^req_/) as string,
    });
    expect(attempts[1]?.headers).toBeUndefined();
    expect(JSON.stringify(row)).not.toMatch(/sk-ant-secret|must-not-be-kept/);

    // The same request is found by the status of its first attempt, and exported with both.
    expect((await rows({ search: '429' })).map((r) => r.id)).toContain(row.id);
    const csv = await h.core.router.call('activity.exportCsv', { search: 'main' });
    const file = (csv.ok ? csv.value : null) as ActivityCsv | null;
    expect(file?.csv).toContain(`primary 429 ${attempts[0]?.reason ?? ''}`);
    expect(file?.csv).toMatch(/backup 200 served \d+ms/);
    for (const secret of [h.key, WRONG_KEY, 'sk-ant-secret']) expect(file?.csv).not.toContain(secret);
    await h.core.router.call('cooldowns.clear', { target: 'all' });
  });

  it('ISSUE-13 PROD-16: an unreachable connection is an attempt with no status, its reason and timing, before the one that served', async () => {
    backup.enqueue({ kind: 'ok', text: 'from the backup' });
    const res = await post('/v1/messages', message('gone-first'));
    expect(res.status).toBe(200);
    const row = await newestRow((r) => r.model === 'gone-first');
    const [gone, served] = row.attempts ?? [];
    expect(gone).toMatchObject({ connection: 'gone', status: null, reason: 'unreachable', upstreamModel: MODEL });
    expect(gone?.ms).toBeGreaterThanOrEqual(0);
    expect(gone?.headers).toBeUndefined();
    expect(served).toMatchObject({ connection: 'backup', status: 200, reason: 'served' });
    await h.core.router.call('cooldowns.clear', { target: 'all' });
  });

  it('ISSUE-13 CONC-7: a request held for a cooldown keeps the attempt whose answer the hold dropped', async () => {
    await h.core.router.call('cooldowns.clear', { target: 'all' });
    primary.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    primary.enqueue({ kind: 'ok', text: 'after the wait' });
    const res = await post('/v1/messages', message(`primary/${MODEL}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    const row = await newestRow((r) => r.model === `primary/${MODEL}`);
    // Issue 21 §13: the failure before the wait is part of the failover list (and header) too.
    expect(row.failover).toEqual([{ connection: 'primary', status: 429, reason: expect.any(String) as string }]);
    expect((row.attempts ?? []).map((a) => [a.connection, a.status, a.reason])).toEqual([
      ['primary', 429, expect.any(String) as string],
      ['primary', 200, 'served'],
    ]);
    expect(row.attempts?.[0]?.headers).toMatchObject({ 'retry-after': '1' });
  }, 15_000);
});
