import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeUpstream, RecordedRequest } from '../fake-upstream';
import { anthropicConnection } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { activity, useClientHarness } from './client-harness';

/*
 * The real Claude Code CLI against a two-connection round-robin combo reached through a `*` route
 * (Claude Code picks its own model names). One HOME is kept across the runs so `--resume` finds
 * the session; Claude Code sends its session id as `x-claude-code-session-id`, which pins it.
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 240_000;
let homes: string[] = [];
afterEach(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
  homes = [];
});

if (!binary) console.warn('Skipping Claude Code session tests: the Claude Code native binary is not installed');

const isMessages = (r: RecordedRequest) =>
  r.method === 'POST' && new URL(r.path, 'http://x').pathname === '/v1/messages';

async function roundRobinBehindCatchAll() {
  const a = await harness.upstream({ format: 'anthropic', name: 'a' });
  const b = await harness.upstream({ format: 'anthropic', name: 'b' });
  a.setDefault({ kind: 'ok', text: 'answer from account a' });
  b.setDefault({ kind: 'ok', text: 'answer from account b' });
  // Each connection lists its models, so Claude Code's own model names are served only through the route.
  const leeway = await harness.leeway({
    connections: [
      anthropicConnection('acct-a', a.url, { models: ['claude-sonnet-4-6'] }),
      anthropicConnection('acct-b', b.url, { models: ['claude-sonnet-4-6'] }),
    ],
    combos: [{ name: 'main', strategy: 'round-robin', targets: ['acct-a', 'acct-b'] }],
    routes: [{ match: '*', to: 'main' }],
  });
  return { a, b, leeway };
}

const messagesTo = (u: FakeUpstream) => u.requests.filter(isMessages).length;

describe('Claude Code CLI sessions through Leeway', () => {
  it.skipIf(!binary)(
    'AFF-2, AFF-7: `claude -p --session-id U`, then `claude -p --resume U` twice, stays on one connection of a round-robin combo',
    async () => {
      const { a, b, leeway } = await roundRobinBehindCatchAll();
      const home = mkdtempSync(join(tmpdir(), 'leeway-claude-home-'));
      homes.push(home);
      const session = randomUUID();
      const options = { baseUrl: leeway.url, apiKey: leeway.key, timeoutMs: RUN_TIMEOUT_MS, home };
      const runs = [
        await runClaude(binary ?? '', ['-p', 'say hi', '--session-id', session], options),
        await runClaude(binary ?? '', ['-p', 'and again', '--resume', session], options),
        await runClaude(binary ?? '', ['-p', 'once more', '--resume', session], options),
      ];
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const first = runs[0]?.stdout.includes('account a') ? 'a' : 'b';
      for (const run of runs) expect(run.stdout).toContain(`answer from account ${first}`);
      // Every request of the session went to one account; the other saw none.
      expect(Math.min(messagesTo(a), messagesTo(b))).toBe(0);
      expect(Math.max(messagesTo(a), messagesTo(b))).toBeGreaterThanOrEqual(3);
      for (const r of [...a.requests, ...b.requests]) expect(r.headers['x-claude-code-session-id']).toBeUndefined();
      const served = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
      expect(new Set(served.map((e) => e.connection))).toEqual(new Set([`acct-${first}`]));
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'issue 9 §5: Claude Code with no `--model` is served through the `*` route',
    async () => {
      const { a, b, leeway } = await roundRobinBehindCatchAll();
      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: leeway.url,
        apiKey: leeway.key,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/answer from account [ab]/);
      const sent = [...a.requests, ...b.requests].filter(isMessages);
      expect(sent.length).toBeGreaterThanOrEqual(1);
      // The connection got a model it lists; the activity log keeps what Claude Code asked for.
      for (const r of sent) expect((r.json as { model: string }).model).toBe('claude-sonnet-4-6');
      const served = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
      expect(served.length).toBeGreaterThanOrEqual(1);
      expect(String(served[0]?.model)).toMatch(/^claude-/);
      expect(served[0]?.model).not.toBe('claude-sonnet-4-6');
    },
    TEST_TIMEOUT_MS,
  );
});
