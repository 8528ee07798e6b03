import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-upstream';
import { openaiConnection, TEST_LOCAL_KEY } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 12: the real Claude Code CLI (`claude -p`) through Leeway to an OpenAI-compatible
 * connection only: its Messages requests (tools, system blocks, cache_control, metadata) are
 * translated to Chat Completions and the streamed answer back to an Anthropic stream.
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const ANSWER = 'hello from the chat-completions fake';
const RUN_TIMEOUT_MS = 20_000;

if (!binary) console.warn('Skipping translated Claude Code tests: the Claude Code native binary is not installed');

const isChat = (r: RecordedRequest) => r.method === 'POST' && r.path === '/v1/chat/completions';

describe('Claude Code CLI through Leeway to an OpenAI-compatible connection (issue 12)', () => {
  it.skipIf(!binary)(
    'issue 12 §1: `claude -p "say hi"` prints the answer a chat-completions upstream streamed',
    async () => {
      const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
      upstream.setDefault({ kind: 'ok', text: ANSWER, deltas: 4 });
      // No models list: the connection serves whatever model Claude Code picks.
      const leeway = await harness.leeway({ connections: [openaiConnection('glm', upstream.url)] });

      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: leeway.url,
        apiKey: '',
        env: { ANTHROPIC_AUTH_TOKEN: leeway.key, CLAUDE_CODE_MAX_RETRIES: '0' },
        timeoutMs: RUN_TIMEOUT_MS,
      });

      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(ANSWER);
      const chats = upstream.requests.filter(isChat);
      expect(chats.length).toBeGreaterThanOrEqual(1);
      expect(upstream.requests.filter((r) => r.path.startsWith('/v1/messages'))).toHaveLength(0);
      const body = chats.at(-1)?.json as {
        model: string;
        stream: boolean;
        messages: { role: string }[];
        tools?: unknown[];
      };
      expect(body.stream).toBe(true);
      expect(body.model).toMatch(/^claude-/);
      expect(body.messages[0]?.role).toBe('system');
      expect(body.messages.some((m) => m.role === 'user')).toBe(true);
      expect(JSON.stringify(body.messages)).toContain('say hi');
      // Claude Code's own tools (Bash, Read, …) went along as Chat Completions functions.
      expect(body.tools?.length).toBeGreaterThan(0);
      for (const tool of body.tools ?? []) expect(tool).toMatchObject({ type: 'function' });
      for (const r of upstream.requests) {
        expect(r.headers.authorization).toBe('Bearer sk-openai-secret-glm-0000');
        expect(r.headers['anthropic-beta']).toBeUndefined();
        expect(r.headers['x-claude-code-session-id']).toBeUndefined();
        expect(JSON.stringify(r.headers) + r.body).not.toContain(TEST_LOCAL_KEY);
      }
      const served = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
      expect(served.length).toBeGreaterThanOrEqual(1);
      expect(served[0]).toMatchObject({ connection: 'glm', apiFormat: 'anthropic', translated: 'anthropic->openai' });
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
