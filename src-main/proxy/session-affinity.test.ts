import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_HEADERS } from '../../src-shared/domain/affinity';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let running: RunningLeeway[] = [];
let dirs: string[] = [];

afterEach(async () => {
  await Promise.all(running.map((h) => h.stop()));
  running = [];
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

async function fakes() {
  const a = await startFakeUpstream({ format: 'anthropic', name: 'a' });
  const b = await startFakeUpstream({ format: 'anthropic', name: 'b' });
  upstreams.push(a, b);
  return { a, b };
}

const TARGETS = [
  { connection: 'acct-a', model: 'claude-sonnet-4-5' },
  { connection: 'acct-b', model: 'claude-sonnet-4-5' },
];

function roundRobinConfig(a: FakeUpstream, b: FakeUpstream) {
  return {
    connections: [anthropicConnection('acct-a', a.url), anthropicConnection('acct-b', b.url)],
    combos: [{ name: 'main', strategy: 'round-robin', targets: TARGETS }],
  };
}

async function start(config: Record<string, unknown>, dataDir?: string) {
  const h = await startLeeway(config, dataDir ? { dataDir } : {});
  running.push(h);
  return h;
}

async function ask(h: RunningLeeway, headers: Record<string, string> = {}, model = 'main') {
  const res = await fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res;
}

describe('combo strategy round-robin and session pins through the proxy', () => {
  it('issue 9 §2: without a session key a round-robin combo alternates between its two connections', async () => {
    const { a, b } = await fakes();
    const h = await start(roundRobinConfig(a, b));
    const served: (string | null)[] = [];
    for (let i = 0; i < 4; i++) served.push((await ask(h)).headers.get('x-leeway-connection'));
    expect(served).toEqual(['acct-a', 'acct-b', 'acct-a', 'acct-b']);
    expect(a.requests.length).toBe(2);
    expect(b.requests.length).toBe(2);
  });

  it('issue 9 §2: a priority combo keeps its listed order without a session key', async () => {
    const { a, b } = await fakes();
    const config = roundRobinConfig(a, b);
    const h = await start({ ...config, combos: [{ name: 'main', targets: TARGETS }] });
    for (let i = 0; i < 3; i++) expect((await ask(h)).headers.get('x-leeway-connection')).toBe('acct-a');
    expect(b.requests.length).toBe(0);
  });

  it('AFF-2, AFF-7, AFF-8: four sessions on a two-connection round-robin combo each keep their connection and are spread over both', async () => {
    const { a, b } = await fakes();
    const h = await start(roundRobinConfig(a, b));
    const sessions = ['s-1', 's-2', 's-3', 's-4'];
    const firstServed = new Map<string, string | null>();
    for (let round = 0; round < 3; round++) {
      for (const session of sessions) {
        const res = await ask(h, { 'x-leeway-session': session });
        expect(res.status).toBe(200);
        const connection = res.headers.get('x-leeway-connection');
        if (round === 0) {
          firstServed.set(session, connection);
          expect(res.headers.get('x-leeway-session-pin')).toBeNull();
        } else {
          expect(connection).toBe(firstServed.get(session));
          // The pin decided, and the response says so.
          expect(res.headers.get('x-leeway-session-pin')).toBe(connection);
        }
      }
    }
    const counts = [...firstServed.values()].reduce<Record<string, number>>(
      (acc, c) => ({ ...acc, [c ?? '']: (acc[c ?? ''] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ 'acct-a': 2, 'acct-b': 2 });
  });

  it('AFF-4: pins survive a restart on the same data directory', async () => {
    const { a, b } = await fakes();
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-pins-'));
    dirs.push(dataDir);
    const first = await start(roundRobinConfig(a, b), dataDir);
    // Two unpinned picks first, so the session's connection is the second one (not what a fresh rotation picks).
    await ask(first);
    const pinnedTo = (await ask(first, { 'x-claude-code-session-id': 'resume-me' })).headers.get('x-leeway-connection');
    expect(pinnedTo).toBe('acct-b');
    await first.stop();
    running = running.filter((h) => h !== first);

    const second = await start(roundRobinConfig(a, b), dataDir);
    const res = await ask(second, { 'x-claude-code-session-id': 'resume-me' });
    expect(res.headers.get('x-leeway-connection')).toBe('acct-b');
    expect(res.headers.get('x-leeway-session-pin')).toBe('acct-b');
  });

  it("AFF-6: a pinned connection's 429 moves the session to the other connection without the client seeing a 429", async () => {
    const { a, b } = await fakes();
    const h = await start(roundRobinConfig(a, b));
    const session = { 'x-session-id': 'moving' };
    expect((await ask(h, session)).headers.get('x-leeway-connection')).toBe('acct-a');
    a.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    const moved = await ask(h, session);
    expect(moved.status).toBe(200);
    expect(moved.headers.get('x-leeway-connection')).toBe('acct-b');
    expect(moved.headers.get('x-leeway-failover')).toBe('acct-a=429');
    expect(moved.headers.get('x-leeway-session-pin')).toBeNull();
    // The pin moved with the session: acct-b serves it from now on, as its pin.
    const after = await ask(h, session);
    expect(after.headers.get('x-leeway-connection')).toBe('acct-b');
    expect(after.headers.get('x-leeway-session-pin')).toBe('acct-b');
    // The activity rows say what the pin did, newest first: kept on acct-b, moved there, made on acct-a.
    const rows = await h.core.router.call('activity.list', {});
    const marks = rows.ok ? (rows.value as { connection: string | null; sessionPin: string | null }[]).slice(0, 3) : [];
    expect(marks.map((r) => [r.connection, r.sessionPin])).toEqual([
      ['acct-b', 'kept'],
      ['acct-b', 'moved'],
      ['acct-a', 'new'],
    ]);
  });

  it('AFF-3: sessionAffinityTtlMs 0 turns pins off: the round-robin decides every request alone', async () => {
    const { a, b } = await fakes();
    const h = await start(roundRobinConfig(a, b));
    const updated = await h.core.router.call('settings.update', { sessionAffinityTtlMs: 0 });
    expect(updated.ok).toBe(true);
    const served: (string | null)[] = [];
    for (let i = 0; i < 2; i++)
      served.push((await ask(h, { 'x-leeway-session': 'off' })).headers.get('x-leeway-connection'));
    expect(served).toEqual(['acct-a', 'acct-b']);
  });

  it('AFF-5, PROD-15: no session header ever reaches the upstream, whichever name carried it', async () => {
    const { a, b } = await fakes();
    const h = await start(roundRobinConfig(a, b));
    const all = Object.fromEntries(SESSION_HEADERS.map((name, i) => [name, `sess-secret-${i}`]));
    await ask(h, all);
    await ask(h, { 'x-leeway-session': 'sess-secret-solo' });
    for (const r of [...a.requests, ...b.requests]) {
      for (const name of SESSION_HEADERS) expect(r.headers[name]).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain('sess-secret');
    }
    expect(a.requests.length + b.requests.length).toBe(2);
  });
});
