import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestDecision } from '../../src-shared/domain/decision';
import { ask, burst, call, KEYS, startQuotaLeeway } from '../quota/quota.testkit';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';

/**
 * Issue 24 §1 through the real proxy: a request that skips a cooling connection (a) and one quota
 * holds (c) and is served by a third (b) says so in `x-leeway-decision`, in its stored record, on
 * the admin API and in `leeway why`.
 */
const MODEL = 'claude-sonnet-4-5';
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'leeway.mjs');

let ua: FakeUpstream;
let ub: FakeUpstream;
let uc: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  [ua, ub, uc] = (await Promise.all(
    ['a', 'b', 'c'].map((name) => startFakeUpstream({ format: 'anthropic', name })),
  )) as [FakeUpstream, FakeUpstream, FakeUpstream];
  h = await startQuotaLeeway(
    {
      connections: [
        anthropicConnection('a', ua.url, { models: [MODEL] }),
        anthropicConnection('c', uc.url, { models: [MODEL] }),
        anthropicConnection('b', ub.url, { models: [MODEL] }),
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'a', model: MODEL },
            { connection: 'c', model: MODEL },
            { connection: 'b', model: MODEL },
          ],
        },
      ],
    },
    [
      {
        name: 'team',
        connection: 'c',
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 20 }],
        allocations: [
          { key: 'alice', weight: 50, policy: 'hard' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ],
  );
  // Alice uses up her share of c's pool (QFAIR: 10 of 20 past the threshold): c is held for her.
  expect(await burst(h, 'alice', `c/${MODEL}`, 10, 'team')).toEqual(Array(10).fill(200));
});

afterAll(async () => {
  await h.stop();
  await Promise.all([ua.close(), ub.close(), uc.close()]);
});

async function decisionOf(id: string): Promise<{ status: number; body: RequestDecision & { lines: string[] } }> {
  const res = await fetch(`${h.url}/api/requests/${id}/decision`, {
    headers: { authorization: `Bearer ${h.adminToken}` },
  });
  return { status: res.status, body: (await res.json()) as RequestDecision & { lines: string[] } };
}

function why(id: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'why', id], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: h.dataDir,
      LEEWAY_DATA_DIR: h.dataDir,
      LEEWAY_ADMIN_PORT: new URL(h.url).port,
      LEEWAY_ADMIN_TOKEN: h.adminToken,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('decision record (issue 24 §1)', () => {
  it('ISSUE-24: skipped a (cooling) and c (quota), served by b: header, stored record, API and leeway why agree', async () => {
    // a answers 429 with Retry-After: 41 once: it cools for 41 s, and this request moves on to b.
    ua.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '41' } });
    const first = await ask(h, 'alice', 'main');
    await first.text();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-leeway-decision')).toMatch(
      /^served=b; skipped=c:quota\(requests\/hourly,ETA \d+m\); failed=a:429$/,
    );

    const res = await ask(h, 'alice', 'main');
    await res.text();
    expect(res.status).toBe(200);
    const header = res.headers.get('x-leeway-decision') ?? '';
    expect(header).toMatch(/^served=b; skipped=a:cooling\(429,4[01]s\),c:quota\(requests\/hourly,ETA \d+m\)$/);
    expect(ua.requests).toHaveLength(1);

    const stored = await decisionOf('last');
    expect(stored.status).toBe(200);
    const { decision } = stored.body;
    expect(decision.served).toBe('b');
    expect(decision.entries).toMatchObject([
      {
        kind: 'skipped',
        connection: 'a',
        reason: 'unavailable',
        detail: expect.stringMatching(/^429 .*upstream hint$/),
      },
      { kind: 'skipped', connection: 'c', reason: 'quota', detail: 'requests/hourly' },
      { kind: 'attempted', connection: 'b', status: 200, reason: 'served', model: MODEL },
    ]);
    // `until` is on the core's clock: about 41 s after this request started.
    const ts = (await call(h, 'activity.list', { limit: 1 }))[0]?.ts ?? 0;
    const [cooling] = decision.entries;
    const until = cooling?.kind === 'skipped' ? (cooling.until ?? 0) : 0;
    expect(until - ts).toBeGreaterThan(38_000);
    expect(until - ts).toBeLessThan(43_000);
    expect(stored.body.lines.join('\n')).toMatch(/a \/ claude-sonnet-4-5: skipped, cooling \(429 .*\), back in 4[01]s/);

    // The same record by its own id, and through the contract.
    const byId = await decisionOf(String(stored.body.id));
    expect(byId.body.decision).toEqual(decision);
    const viaContract = await h.core.router.call('activity.decision', { id: stored.body.id });
    expect(viaContract).toEqual({ ok: true, value: { id: stored.body.id, decision } });

    const out = await why('last');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Request ${stored.body.id}:`);
    expect(out.stdout).toMatch(/1\. a \/ claude-sonnet-4-5: skipped, cooling \(429/);
    expect(out.stdout).toMatch(/2\. c \/ claude-sonnet-4-5: skipped, quota held \(requests\/hourly\), back in \d+m/);
    expect(out.stdout).toMatch(/3\. b \/ claude-sonnet-4-5: served 200 in \d+ ms/);
    expect(out.stdout).toContain('served by b');
    // No secret reaches the header, the record or the CLI.
    for (const text of [header, JSON.stringify(decision), out.stdout]) {
      expect(text).not.toContain('sk-ant-secret');
      expect(text).not.toContain(KEYS.alice);
    }
  });

  it('ISSUE-24: an unknown id is a 404 in the admin shape, a malformed one a 400; leeway why says so and exits non-zero', async () => {
    const missing = await decisionOf('987654');
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain('not_found');
    expect((await decisionOf('abc')).status).toBe(400);
    const out = await why('987654');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('No decision record for request 987654');
    expect((await why('nope')).code).toBe(2);
  });
});
