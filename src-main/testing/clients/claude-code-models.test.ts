import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-upstream';
import { anthropicConnection } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { activity, useClientHarness } from './client-harness';

/*
 * Claude Code (the real CLI, 2.1.197) against a Leeway with model routes, set up the way issue 13
 * §6 recommends: ANTHROPIC_AUTH_TOKEN (not ANTHROPIC_API_KEY), or Leeway's "Configure Claude Code"
 * writing ~/.claude/settings.json. Captured from the CLI: with CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1
 * (and non-essential traffic allowed) it calls `GET <base>/v1/models?limit=1000` with
 * `Authorization: Bearer <token>` and `anthropic-version: 2023-06-01`, keeps the ids starting with
 * `claude` / `anthropic` and caches them in `~/.claude/cache/gateway-models.json`, which is the list
 * its `/model` picker offers ("From gateway").
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 90_000;
if (!binary) console.warn('Skipping Claude Code model tests: the Claude Code native binary is not installed');

const isMessages = (r: RecordedRequest) =>
  r.method === 'POST' && new URL(r.path, 'http://x').pathname === '/v1/messages';

/** Only a model list (`claude-sonnet-4-6`), a combo and a catch-all route: every other name is refused upstream. */
async function routedLeeway(text: string) {
  const upstream = await harness.upstream({ format: 'anthropic', name: 'routed' });
  upstream.setDefault({ kind: 'ok', text });
  const leeway = await harness.leeway({
    connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-6', 'claude-haiku-4-5'] })],
    combos: [
      { name: 'main', targets: [{ connection: 'a1', model: 'claude-sonnet-4-6' }] },
      { name: 'cheap', targets: [{ connection: 'a1', model: 'claude-haiku-4-5' }] },
    ],
    routes: [
      { match: '*haiku*', to: 'cheap' },
      { match: '*', to: 'main' },
    ],
  });
  return { upstream, leeway };
}

/** The token the way the setup snippets give it: ANTHROPIC_AUTH_TOKEN, with no ANTHROPIC_API_KEY at all. */
const authTokenEnv = (token: string) => ({ ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: token });

describe('Claude Code models and setup through Leeway (issue 13 §5, §6)', () => {
  it.skipIf(!binary)(
    'PROD-10: `claude -p` with no --model and ANTHROPIC_AUTH_TOKEN works against a config whose `*` route goes to a combo',
    async () => {
      const { upstream, leeway } = await routedLeeway('routed answer');
      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: leeway.url,
        apiKey: '',
        env: authTokenEnv(leeway.key),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('routed answer');
      const sent = upstream.requests.filter(isMessages);
      expect(sent.length).toBeGreaterThanOrEqual(1);
      // Claude Code's own default model is not in the list: the route sent the combo's model instead.
      for (const r of sent)
        expect(['claude-sonnet-4-6', 'claude-haiku-4-5']).toContain((r.json as { model: string }).model);
      expect(sent[0]?.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');
      const served = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
      expect(served[0]).toMatchObject({ connection: 'a1', keyName: 'test' });
      expect(String(served[0]?.model)).not.toBe('claude-sonnet-4-6');
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    "PROD-10: Claude Code's model listing (GET /v1/models?limit=1000, the /model picker's source) is served in Anthropic's shape",
    async () => {
      const { leeway } = await routedLeeway('listed');
      const home = mkdtempSync(join(tmpdir(), 'leeway-claude-home-'));
      try {
        const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
          baseUrl: leeway.url,
          apiKey: '',
          home,
          env: {
            ...authTokenEnv(leeway.key),
            CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
            // Empty = unset: the discovery call is "non-essential traffic" for Claude Code.
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '',
          },
          timeoutMs: RUN_TIMEOUT_MS,
        });
        expect(run.code).toBe(0);
        const cache = join(home, '.claude', 'cache', 'gateway-models.json');
        expect(existsSync(cache)).toBe(true);
        const cached = JSON.parse(readFileSync(cache, 'utf8')) as { baseUrl: string; models: { id: string }[] };
        expect(cached.baseUrl).toBe(leeway.url);
        // Claude Code keeps only claude*/anthropic* ids: the combos are routing names it does not offer.
        expect(cached.models.map((m) => m.id).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-6']);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'PROD-10 PROD-13: after "Configure Claude Code" wrote ~/.claude/settings.json, plain `claude -p` (no variables) goes through Leeway',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'leeway-claude-home-'));
      const savedHome = process.env.HOME;
      try {
        // Before the start: the entry reads the environment once (issue 22), HOME included.
        process.env.HOME = home;
        const { upstream, leeway } = await routedLeeway('configured once');
        const applied = await leeway.core.router.call('setup.configureClaudeCode', { authToken: leeway.key });
        expect(applied.ok).toBe(true);
        const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
          baseUrl: '',
          apiKey: '',
          home,
          timeoutMs: RUN_TIMEOUT_MS,
        });
        expect(run.code).toBe(0);
        expect(run.stdout).toContain('configured once');
        expect(upstream.requests.filter(isMessages).length).toBeGreaterThanOrEqual(1);
      } finally {
        process.env.HOME = savedHome;
        rmSync(home, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'PROD-10: ANTHROPIC_BASE_URL ending in /v1 still works (served with a warning), instead of a 404 on /v1/v1/messages',
    async () => {
      const { upstream, leeway } = await routedLeeway('despite the /v1');
      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: `${leeway.url}/v1`,
        apiKey: '',
        env: authTokenEnv(leeway.key),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('despite the /v1');
      expect(upstream.requests.filter(isMessages).length).toBeGreaterThanOrEqual(1);
      expect(leeway.logs.some((l) => l.includes('drop the /v1'))).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
