import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/open';
import { spawnHeadless, type HeadlessProcess } from '../crash/headless-process';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, openaiConnection, TEST_ADMIN_TOKEN, TEST_LOCAL_KEY } from '../start-leeway';
import { lastSseEvent, startRequest } from './shutdown-kit';

/*
 * Issue 21 §9: the real headless process, stopped with SIGINT while requests are in flight. One
 * signal drains (new requests refused, in-flight ones given the grace, the rest ended with an error
 * in their client's format, every one logged, exit 0); a second one exits at once with 130.
 */

const GRACE_S = 3;
const upstreams: FakeUpstream[] = [];
const processes: HeadlessProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of processes.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) await p.stop('SIGKILL');
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function fake(format: 'anthropic' | 'openai', name: string): Promise<FakeUpstream> {
  const up = await startFakeUpstream({ format, name });
  upstreams.push(up);
  return up;
}

async function start(connections: Record<string, unknown>[], graceS: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'leeway-shutdown-'));
  dirs.push(dataDir);
  const configFile = join(dataDir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ keys: [{ name: 'test', key: TEST_LOCAL_KEY }], connections }));
  const p = await spawnHeadless({
    dataDir,
    configFile,
    adminToken: TEST_ADMIN_TOKEN,
    env: { LEEWAY_SHUTDOWN_GRACE: String(graceS) },
  });
  processes.push(p);
  return { p, dataDir };
}

interface Row {
  endpoint: string;
  model: string;
  status: number;
  stream: number;
  error_code: string | null;
}

function activityRows(dataDir: string): Row[] {
  const db = openDatabase(join(dataDir, 'leeway.sqlite'));
  try {
    return db.prepare<[], Row>('SELECT endpoint, model, status, stream, error_code FROM request_log ORDER BY id').all();
  } finally {
    db.close();
  }
}

const anthropicBody = (model: string, stream: boolean) => ({
  model,
  max_tokens: 16,
  stream,
  messages: [{ role: 'user', content: 'hi' }],
});
const chatBody = (model: string, stream: boolean) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] });

describe('issue 21 §9: Ctrl-C while requests are in flight', () => {
  it(
    'issue 21 §9: one SIGINT lets a short stream finish, ends longer streams after the grace with an error event in the client format (Anthropic, OpenAI, Responses), answers waiting non-stream requests 503, logs each one truthfully and exits 0',
    { timeout: 60_000 },
    async () => {
      const slow = await fake('anthropic', 'slow');
      slow.setDefault({ kind: 'slow-stream', intervalMs: 200, deltas: 200 });
      const quick = await fake('anthropic', 'quick');
      quick.setDefault({ kind: 'slow-stream', intervalMs: 100, deltas: 8 });
      const oslow = await fake('openai', 'oslow');
      oslow.setDefault({ kind: 'slow-stream', intervalMs: 200, deltas: 200 });
      const hang = await fake('anthropic', 'hang');
      hang.setDefault({ kind: 'hang' });
      const ohang = await fake('openai', 'ohang');
      ohang.setDefault({ kind: 'hang' });
      const { p, dataDir } = await start(
        [
          anthropicConnection('slow', slow.url, { models: ['m-slow'] }),
          anthropicConnection('quick', quick.url, { models: ['m-quick'] }),
          openaiConnection('oslow', oslow.url, { models: ['o-slow'] }),
          anthropicConnection('hang', hang.url, { models: ['m-hang'] }),
          openaiConnection('ohang', ohang.url, { models: ['o-hang'] }),
        ],
        GRACE_S,
      );
      const anthropic = { 'x-api-key': TEST_LOCAL_KEY, 'anthropic-version': '2023-06-01' };
      const openai = { authorization: `Bearer ${TEST_LOCAL_KEY}` };
      const streams = {
        anthropic: startRequest(p.url, '/v1/messages', anthropic, anthropicBody('m-slow', true)),
        openai: startRequest(p.url, '/v1/chat/completions', openai, chatBody('o-slow', true)),
        responses: startRequest(p.url, '/v1/responses', openai, { model: 'm-slow', stream: true, input: 'hi' }),
      };
      const waiting = {
        anthropic: startRequest(p.url, '/v1/messages', anthropic, anthropicBody('m-hang', false)),
        openai: startRequest(p.url, '/v1/chat/completions', openai, chatBody('o-hang', false)),
      };
      // Every long stream has committed (bytes reached the client) and both non-stream requests wait upstream.
      await Promise.all(Object.values(streams).map((s) => s.firstBytes));
      await hang.waitForRequests(1, 5_000);
      await ohang.waitForRequests(1, 5_000);
      const short = startRequest(p.url, '/v1/messages', anthropic, anthropicBody('m-quick', true));
      await short.firstBytes;

      const signalledAt = Date.now();
      p.child.kill('SIGINT');
      // Stop accepting: a request made after the signal is refused (no listener, or a 503 on a kept-alive socket).
      await expect.poll(() => p.output()).toContain('SIGINT received');
      const late = await fetch(`${p.url}/v1/messages`, {
        method: 'POST',
        headers: { ...anthropic, 'content-type': 'application/json' },
        body: JSON.stringify(anthropicBody('m-quick', false)),
      }).then(
        (res) => res.status,
        () => 'refused',
      );
      expect([503, 'refused']).toContain(late);

      const exit = await p.exited;
      const tookMs = Date.now() - signalledAt;
      expect(exit, p.output()).toEqual({ code: 0, signal: null });
      expect(p.output()).not.toContain('received again');
      // Within the bound: the grace, then the ends written and the log flushed (generous for a busy machine).
      expect(tookMs).toBeLessThan(GRACE_S * 1000 + 8_000);

      // The short stream finished normally inside the grace.
      const shortText = await short.text;
      expect(shortText).toContain('event: message_stop');
      expect(shortText).not.toContain('event: error');

      // The long ones end with a parseable error event in their own format.
      const anthropicEnd = lastSseEvent(await streams.anthropic.text);
      expect(anthropicEnd.event).toBe('error');
      expect(anthropicEnd.data).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
      expect(JSON.stringify(anthropicEnd.data)).toContain('shutting down');
      const openaiEnd = lastSseEvent(await streams.openai.text);
      expect(openaiEnd.data).toMatchObject({ error: { code: 'shutdown', message: expect.any(String) } });
      const responsesEnd = lastSseEvent(await streams.responses.text);
      expect(responsesEnd.event).toBe('response.failed');
      expect(responsesEnd.data).toMatchObject({
        type: 'response.failed',
        response: { status: 'failed', error: { code: 'shutdown' } },
      });

      // Non-stream requests still waiting get a 503 in their format.
      expect(await waiting.anthropic.status).toBe(503);
      expect(JSON.parse(await waiting.anthropic.text)).toMatchObject({
        type: 'error',
        error: { type: 'overloaded_error' },
      });
      expect(await waiting.openai.status).toBe(503);
      expect(JSON.parse(await waiting.openai.text)).toMatchObject({ error: { code: 'shutdown' } });

      // Activity: every request has its row, and none of the cut ones is a success.
      const rows = activityRows(dataDir);
      const byModel = (model: string, endpoint: string) =>
        rows.filter((r) => r.model === model && r.endpoint === endpoint);
      expect(byModel('m-quick', 'messages')).toEqual([expect.objectContaining({ status: 200, error_code: null })]);
      const cut = { status: 503, error_code: 'shutdown' };
      expect(byModel('m-slow', 'messages')).toEqual([expect.objectContaining({ ...cut, stream: 1 })]);
      expect(byModel('o-slow', 'chat_completions')).toEqual([expect.objectContaining({ ...cut, stream: 1 })]);
      expect(byModel('m-slow', 'responses')).toEqual([expect.objectContaining({ ...cut, stream: 1 })]);
      expect(byModel('m-hang', 'messages')).toEqual([expect.objectContaining({ ...cut, stream: 0 })]);
      expect(byModel('o-hang', 'chat_completions')).toEqual([expect.objectContaining({ ...cut, stream: 0 })]);
    },
  );

  it('issue 21 §9: a second SIGINT while draining exits at once with code 130', { timeout: 30_000 }, async () => {
    const slow = await fake('anthropic', 'slow');
    slow.setDefault({ kind: 'slow-stream', intervalMs: 200, deltas: 500 });
    const { p } = await start([anthropicConnection('slow', slow.url, { models: ['m-slow'] })], 60);
    const stream = startRequest(
      p.url,
      '/v1/messages',
      { 'x-api-key': TEST_LOCAL_KEY, 'anthropic-version': '2023-06-01' },
      anthropicBody('m-slow', true),
    );
    await stream.firstBytes;
    p.child.kill('SIGINT');
    await expect.poll(() => p.output()).toContain('SIGINT received');
    const secondAt = Date.now();
    p.child.kill('SIGINT');
    const exit = await p.exited;
    expect(exit, p.output()).toEqual({ code: 130, signal: null });
    // "At once": long before the 60 s grace would have run out.
    expect(Date.now() - secondAt).toBeLessThan(5_000);
    await stream.text.catch(() => '');
  });
});
