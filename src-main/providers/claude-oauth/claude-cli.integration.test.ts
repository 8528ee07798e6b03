import { describe, expect, it } from 'vitest';
import { connectionRow } from '../../resilience/resilience-it.testkit';
import { findClaudeBinary, runClaude } from '../../testing/clients/claude-code-binary';
import { claudeConnection } from '../../testing/fake-claude/fake-claude';
import { activityEntries, nowSeconds, sentSlow, useClaudeScene } from '../../testing/fake-claude/claude-scene';
import { TEST_LOCAL_KEY } from '../../testing/start-leeway';

/* The real Claude Code CLI through Leeway to a Claude subscription that sits at its usage wall. */
const scene = useClaudeScene();
const binary = findClaudeBinary();
const ANSWER = 'hello from the fake Claude subscription';

if (!binary) console.warn('Skipping the Claude Code CLI lane test: the Claude Code native binary is not installed');

describe('Claude Code CLI through a claude-oauth connection', () => {
  it.skipIf(!binary)(
    'PROD-10/LOWP-4 (skipped without the Claude Code native binary): at the wall with lowPriorityMode on, `claude -p "say hi"` still prints the answer, served in the slow lane',
    async () => {
      const fake = await scene.claude({ name: 'sub', text: ANSWER });
      fake.setWall({ resetAt: nowSeconds() + 3600 });
      const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });

      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: h.url,
        apiKey: h.key,
        env: { CLAUDE_CODE_MAX_RETRIES: '0' },
        timeoutMs: 60_000,
      });

      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(ANSWER);
      const messages = fake.messages();
      // One wall 429, then only slow requests (the lane stays active for every later request).
      expect(messages[0]?.response?.status).toBe(429);
      expect(sentSlow(messages[0])).toBe(false);
      expect(messages.slice(1).length).toBeGreaterThanOrEqual(1);
      expect(messages.slice(1).every(sentSlow)).toBe(true);
      expect(messages.slice(1).every((r) => r.response?.status === 200)).toBe(true);
      // The subscription token went upstream, never the client's local key.
      for (const r of messages) {
        expect(r.headers.authorization).toBe(`Bearer ${fake.tokens.accessToken ?? ''}`);
        expect(r.headers['x-api-key']).toBeUndefined();
        expect(JSON.stringify(r.headers)).not.toContain(TEST_LOCAL_KEY);
        expect(r.headers['anthropic-beta']).toContain('oauth-2025-04-20');
      }
      expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBeNull();
      const served = (await activityEntries(h, 1)).filter((e) => e.endpoint === 'messages');
      expect(served.at(-1)).toMatchObject({ connection: 'sub', status: 200, servedVia: 'low-priority-accepted' });
    },
    90_000,
  );
});
