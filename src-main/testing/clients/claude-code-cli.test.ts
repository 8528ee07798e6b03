import { describe, expect, it } from 'vitest';
import type { FakeUpstream, RecordedRequest } from '../fake-upstream';
import { anthropicConnection, TEST_LOCAL_KEY } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { activity, useClientHarness } from './client-harness';

/*
 * The real Claude Code CLI (`claude -p`), headless, with ANTHROPIC_BASE_URL at Leeway. Observed
 * with 2.1.197: `-p` needs no onboarding or login when ANTHROPIC_API_KEY is set (non-interactive
 * mode always uses the key); it sends `HEAD /` to the base URL first (a preconnect, answered by
 * Leeway itself), then one streamed `POST /v1/messages?beta=true` for the model it picks
 * (claude-opus-4-8 by default, so the connection must serve any model). It retries 401s with
 * backoff for over a minute unless CLAUDE_CODE_MAX_RETRIES=0 or the answer says
 * `x-should-retry: false` (Leeway's own refusals do: claude-code-errors.test.ts), then prints the
 * error body's message.
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const missing =
  'the Claude Code native binary (@anthropic-ai/claude-code-<platform> or claude-code/bin/claude.exe) is not installed';
const ANSWER = 'hello from the fake upstream';
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 90_000;

if (!binary) console.warn(`Skipping Claude Code CLI tests: ${missing}`);

const isMessages = (r: RecordedRequest) =>
  r.method === 'POST' && new URL(r.path, 'http://x').pathname === '/v1/messages';

function expectOnlyConnectionKey(upstream: FakeUpstream, connectionKey: string): void {
  for (const r of upstream.requests) {
    expect(r.headers['x-api-key']).toBe(connectionKey);
    expect(r.headers.authorization).toBeUndefined();
    expect(JSON.stringify(r.headers)).not.toContain(TEST_LOCAL_KEY);
    expect(r.body).not.toContain(TEST_LOCAL_KEY);
  }
}

describe('Claude Code CLI through Leeway', () => {
  it.skipIf(!binary)(
    'PROD-10: `claude -p "say hi"` prints the upstream answer, sent with the connection key and anthropic-version',
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'cc' });
      upstream.setDefault({ kind: 'ok', text: ANSWER });
      // No models list: the connection serves whatever model Claude Code picks.
      const leeway = await harness.leeway({ connections: [anthropicConnection('a1', upstream.url)] });

      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: leeway.url,
        apiKey: leeway.key,
        timeoutMs: RUN_TIMEOUT_MS,
      });

      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(ANSWER);
      const messages = upstream.requests.filter(isMessages);
      expect(messages.length).toBeGreaterThanOrEqual(1);
      const first = messages[0];
      expect(first?.path).toMatch(/^\/v1\/messages(\?beta=true)?$/);
      expect(first?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(first?.headers['anthropic-beta']).toContain('claude-code-');
      expect(first?.headers['user-agent']).toMatch(/^claude-cli\//);
      expect(first?.response?.status).toBe(200);
      expectOnlyConnectionKey(upstream, 'sk-ant-secret-a1-0000');

      const log = await activity(leeway);
      const served = log.filter((e) => e.endpoint === 'messages' && e.status === 200);
      expect(served.length).toBeGreaterThanOrEqual(1);
      expect(served[0]).toMatchObject({ connection: 'a1', keyName: 'test', apiFormat: 'anthropic' });
      expect(served[0]?.outputTokens).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    'PROD-16: `claude -p --model <combo>` is answered by the second target when the first answers 429',
    async () => {
      const first = await harness.upstream({ format: 'anthropic', name: 'first' });
      const second = await harness.upstream({ format: 'anthropic', name: 'second' });
      first.setDefault({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
      second.setDefault({ kind: 'ok', text: 'answer from the backup connection' });
      const leeway = await harness.leeway({
        connections: [anthropicConnection('primary', first.url), anthropicConnection('backup', second.url)],
        combos: [
          {
            name: 'main',
            targets: [
              { connection: 'primary', model: 'claude-sonnet-4-6' },
              { connection: 'backup', model: 'claude-haiku-4-5' },
            ],
          },
        ],
      });

      const run = await runClaude(binary ?? '', ['-p', 'say hi', '--model', 'main', '--output-format', 'json'], {
        baseUrl: leeway.url,
        apiKey: leeway.key,
        timeoutMs: RUN_TIMEOUT_MS,
      });

      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as { is_error: boolean; result: string };
      expect(result).toMatchObject({ is_error: false, result: 'answer from the backup connection' });
      expect(first.requests.filter(isMessages).length).toBeGreaterThanOrEqual(1);
      const served = second.requests.filter(isMessages);
      expect((served[0]?.json as { model: string }).model).toBe('claude-haiku-4-5');
      expectOnlyConnectionKey(first, 'sk-ant-secret-primary-0000');
      expectOnlyConnectionKey(second, 'sk-ant-secret-backup-0000');
      const [entry] = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
      expect(entry).toMatchObject({
        model: 'main',
        connection: 'backup',
        failover: [{ connection: 'primary', status: 429 }],
      });
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!binary)(
    "PROD-10: a wrong local key makes `claude -p` fail showing Leeway's 401 message, and nothing goes upstream",
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'cc' });
      const leeway = await harness.leeway({ connections: [anthropicConnection('a1', upstream.url)] });

      // Claude Code retries 401s with backoff (over a minute) unless told not to.
      const run = await runClaude(binary ?? '', ['-p', 'say hi', '--output-format', 'json'], {
        baseUrl: leeway.url,
        apiKey: 'lw-wrong-local-key-00000000',
        env: { CLAUDE_CODE_MAX_RETRIES: '0' },
        timeoutMs: RUN_TIMEOUT_MS,
      });

      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      const result = JSON.parse(run.stdout) as { is_error: boolean; api_error_status: number | null; result: string };
      expect(result).toMatchObject({ is_error: true, api_error_status: 401 });
      // Claude Code shows the proxy's own message: "Failed to authenticate. API Error: 401 Invalid local API key".
      expect(result.result).toContain('401');
      expect(result.result).toContain('Invalid local API key');
      expect(upstream.requests).toHaveLength(0);
    },
    TEST_TIMEOUT_MS,
  );
});
