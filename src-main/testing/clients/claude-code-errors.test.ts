import { describe, expect, it } from 'vitest';
import { anthropicConnection } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { useClientHarness } from './client-harness';

/*
 * Claude Code retries 401s (and most errors) with backoff for minutes unless the answer carries
 * `x-should-retry: false`, which its Anthropic SDK honours. Leeway's own refusals carry it, so
 * a wrong local key fails at once — here without CLAUDE_CODE_MAX_RETRIES, as a user would run it.
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const QUICK_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;

if (!binary) console.warn('Skipping Claude Code error tests: the Claude Code native binary is not installed');

describe("Claude Code CLI on Leeway's own errors", () => {
  it.skipIf(!binary)(
    "PROD-10: a wrong local key (ANTHROPIC_AUTH_TOKEN) ends `claude -p` within seconds, showing Leeway's 401 message",
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'cc' });
      const leeway = await harness.leeway({ connections: [anthropicConnection('a1', upstream.url)] });

      const startedAt = Date.now();
      const run = await runClaude(binary ?? '', ['-p', 'say hi', '--output-format', 'json'], {
        baseUrl: leeway.url,
        apiKey: '',
        env: { ANTHROPIC_AUTH_TOKEN: 'lw-wrong-local-key-00000000' },
        timeoutMs: RUN_TIMEOUT_MS,
      });
      const elapsed = Date.now() - startedAt;

      expect(run.code).not.toBeNull();
      expect(run.code).not.toBe(0);
      expect(elapsed).toBeLessThan(QUICK_MS);
      const result = JSON.parse(run.stdout) as { is_error: boolean; api_error_status: number | null; result: string };
      expect(result).toMatchObject({ is_error: true, api_error_status: 401 });
      expect(result.result).toContain('Invalid local API key');
      expect(upstream.requests).toHaveLength(0);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it.skipIf(!binary)(
    'PROD-10: a wrong local key (ANTHROPIC_API_KEY) ends `claude -p` within seconds, without CLAUDE_CODE_MAX_RETRIES',
    async () => {
      const upstream = await harness.upstream({ format: 'anthropic', name: 'cc' });
      const leeway = await harness.leeway({ connections: [anthropicConnection('a1', upstream.url)] });

      const startedAt = Date.now();
      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: leeway.url,
        apiKey: 'lw-wrong-local-key-00000000',
        timeoutMs: RUN_TIMEOUT_MS,
      });

      expect(run.code).not.toBeNull();
      expect(run.code).not.toBe(0);
      expect(Date.now() - startedAt).toBeLessThan(QUICK_MS);
      expect(run.stdout + run.stderr).toContain('Invalid local API key');
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
