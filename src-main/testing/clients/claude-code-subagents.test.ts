import { describe, expect, it } from 'vitest';
import type { Behaviour, FakeUpstream, RecordedRequest } from '../fake-upstream';
import { anthropicConnection } from '../start-leeway';
import { findClaudeBinary, runClaude } from './claude-code-binary';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 23 §3 with the real Claude Code CLI: the fake account answers the main agent's first turn
 * with a call of the Agent tool (Claude Code's subagent tool, formerly Task), so the CLI starts a
 * real subagent, which sends `x-claude-code-agent-id` beside the session id. A round-robin combo of
 * two accounts behind a `*` route would alternate between them; the session's pin keeps the
 * subagent on the main agent's account.
 */
const harness = useClientHarness();
const binary = findClaudeBinary();
const TEST_TIMEOUT_MS = 180_000;

if (!binary) console.warn('Skipping Claude Code subagent test: the Claude Code native binary is not installed');

const isMessages = (r: RecordedRequest) =>
  r.method === 'POST' && new URL(r.path, 'http://x').pathname === '/v1/messages';

const MAIN_PROMPT = 'delegate a greeting';
const SUBAGENT_PROMPT = 'Say hello and stop.';
const SPAWN: Behaviour = {
  kind: 'tool-call',
  calls: [
    {
      name: 'Agent',
      input: { description: 'Greet', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose' },
    },
  ],
};

/**
 * The main agent's first turn spawns a subagent; its last turn (with the tool result) and the
 * subagent's turns are text. Leeway forwards no agent header upstream (only an allowlist of client
 * headers goes), so the fake tells the subagent by the prompt it was given.
 */
function choose(r: RecordedRequest): Behaviour | undefined {
  if (!isMessages(r)) return undefined;
  if (r.body.includes('"tool_result"')) return { kind: 'ok', text: 'the subagent said hello' };
  if (r.body.includes(SUBAGENT_PROMPT)) return { kind: 'ok', text: 'hello from the subagent' };
  const spawns = r.body.includes(MAIN_PROMPT) && /"name":"(Agent|Task)"/.test(r.body);
  return spawns ? SPAWN : { kind: 'ok', text: 'background answer' };
}

describe('Claude Code subagents through Leeway', () => {
  it.skipIf(!binary)(
    'ISSUE-23 AFF-2: a real Claude Code subagent (Agent tool) sends its agent id, shares the session’s connection, and its activity rows carry the id',
    async () => {
      const a = await harness.upstream({ format: 'anthropic', name: 'a', choose });
      const b = await harness.upstream({ format: 'anthropic', name: 'b', choose });
      const leeway = await harness.leeway({
        connections: [
          anthropicConnection('acct-a', a.url, { models: ['claude-sonnet-4-6'] }),
          anthropicConnection('acct-b', b.url, { models: ['claude-sonnet-4-6'] }),
        ],
        combos: [{ name: 'main', strategy: 'round-robin', targets: ['acct-a', 'acct-b'] }],
        routes: [{ match: '*', to: 'main' }],
      });
      const run = await runClaude(binary ?? '', ['-p', MAIN_PROMPT, '--allowedTools', 'Agent'], {
        baseUrl: leeway.url,
        apiKey: leeway.key,
        timeoutMs: 120_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('the subagent said hello');
      // Every turn of the session, the subagent's included, went to one account.
      const sent = (u: FakeUpstream) => u.requests.filter(isMessages);
      expect(Math.min(sent(a).length, sent(b).length)).toBe(0);
      expect(Math.max(sent(a).length, sent(b).length)).toBeGreaterThanOrEqual(3);
      const bySubagent = [...sent(a), ...sent(b)].filter((r) => r.body.includes(SUBAGENT_PROMPT));
      expect(bySubagent.length).toBeGreaterThanOrEqual(1);
      for (const r of bySubagent) expect(r.headers['x-claude-code-agent-id']).toBeUndefined();
      // The activity rows: the main agent's without an agent id, the subagent's with the one it sent.
      const rows = (await activity(leeway)).filter((e) => e.endpoint === 'messages' && e.status === 200);
      const agents = rows.map((e) => e.agentId ?? null);
      expect(agents).toContain(null);
      const subagentIds = new Set(agents.filter((id) => id !== null));
      expect(subagentIds.size).toBe(1);
      expect([...subagentIds][0]).toMatch(/^[\x21-\x7e]{4,}$/);
      expect(new Set(rows.map((e) => e.connection)).size).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});
