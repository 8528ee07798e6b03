import { describe, expect, it } from 'vitest';
import type { SessionPinView } from '../../src-shared/domain/affinity';
import type { SubagentMode } from '../../src-shared/domain/route';
import type { FakeUpstream } from '../testing/fake-upstream';
import { activity, useClientHarness } from '../testing/clients/client-harness';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';

/*
 * Issue 23 §3 through the real proxy: a round-robin combo of two fake Anthropic accounts behind a
 * `*` route, and one Claude Code session whose subagents send `x-claude-code-agent-id` (and, for a
 * nested one, `x-claude-code-parent-agent-id`) next to the session id, as the CLI does.
 */
const harness = useClientHarness();
const SESSION = '3f1c2a9e-7b4d-4c55-9a0e-1d2b3c4d5e6f';

async function sessionBehindRoute(subagents?: SubagentMode) {
  const a = await harness.upstream({ format: 'anthropic', name: 'a' });
  const b = await harness.upstream({ format: 'anthropic', name: 'b' });
  const route = subagents ? { match: '*', to: 'main', subagents } : { match: '*', to: 'main' };
  const leeway = await harness.leeway({
    connections: [
      anthropicConnection('acct-a', a.url, { models: ['claude-sonnet-4-6'] }),
      anthropicConnection('acct-b', b.url, { models: ['claude-sonnet-4-6'] }),
    ],
    combos: [{ name: 'main', strategy: 'round-robin', targets: ['acct-a', 'acct-b'] }],
    routes: [route],
  });
  return { a, b, leeway };
}

/** One request of the session: the main agent's (no agent id) or a subagent's; answers the connection that served. */
async function ask(leeway: RunningLeeway, agent?: string, parent?: string): Promise<string | null> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': leeway.key,
    'anthropic-version': '2023-06-01',
    'x-claude-code-session-id': SESSION,
  };
  if (agent) headers['x-claude-code-agent-id'] = agent;
  if (parent) headers['x-claude-code-parent-agent-id'] = parent;
  const res = await fetch(`${leeway.url}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'claude-opus-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(res.status, await res.text()).toBe(200);
  return res.headers.get('x-leeway-connection');
}

/** The live pins as the dashboard's `sessions.list` gives them. */
async function pinsOf(leeway: RunningLeeway): Promise<SessionPinView[]> {
  const pins = await leeway.core.router.call('sessions.list', {});
  if (!pins.ok) throw new Error(pins.error.message);
  return pins.value as SessionPinView[];
}

const messages = (u: FakeUpstream) => u.requests.filter((r) => r.path.startsWith('/v1/messages')).length;

describe('Claude Code subagents and session pins (issue 23 §3)', () => {
  it('ISSUE-23 AFF-2 AFF-7: by default two subagents of one session land on the session’s connection', async () => {
    const { a, b, leeway } = await sessionBehindRoute();
    const home = await ask(leeway);
    const served = [
      await ask(leeway, 'agent-1'),
      await ask(leeway, 'agent-2'),
      await ask(leeway, 'agent-3', 'agent-2'),
    ];
    expect(served).toEqual([home, home, home]);
    // The round-robin combo never got to alternate: the other account saw nothing.
    expect(Math.min(messages(a), messages(b))).toBe(0);
    expect((await pinsOf(leeway)).map((p) => [p.session, p.agent])).toEqual([[SESSION, null]]);
  });

  it('ISSUE-23 AFF-7: with `subagents: spread` each subagent gets its own pin and they spread over both connections', async () => {
    const { a, b, leeway } = await sessionBehindRoute('spread');
    const home = await ask(leeway);
    const first = await ask(leeway, 'agent-1');
    const second = await ask(leeway, 'agent-2');
    expect(first).not.toBe(home);
    expect(new Set([home, first, second])).toEqual(new Set(['acct-a', 'acct-b']));
    // Each keeps its own connection afterwards: the main agent, and every subagent.
    expect(await ask(leeway, 'agent-1')).toBe(first);
    expect(await ask(leeway, 'agent-2')).toBe(second);
    expect(await ask(leeway)).toBe(home);
    expect(messages(a)).toBeGreaterThan(0);
    expect(messages(b)).toBeGreaterThan(0);
    const pins = await pinsOf(leeway);
    const views = pins.map((p) => `${p.session} ${p.agent ?? '-'} ${p.connection}`).sort();
    expect(views).toEqual(
      [`${SESSION} - ${home}`, `${SESSION} agent-1 ${first}`, `${SESSION} agent-2 ${second}`].sort(),
    );
    // A subagent's pin is cleared by its session and agent, leaving the session's own.
    const cleared = await leeway.core.router.call('sessions.clear', {
      target: 'pin',
      keyName: pins[0]?.keyName ?? '',
      session: SESSION,
      scope: 'route:*',
      agent: 'agent-1',
    });
    expect(cleared).toEqual({ ok: true, value: { cleared: 1 } });
  });

  it('ISSUE-23: the activity row records the agent id and its parent; the main agent’s has neither', async () => {
    const { a, b, leeway } = await sessionBehindRoute();
    await ask(leeway);
    await ask(leeway, 'agent-7', 'agent-6');
    const rows = (await activity(leeway)).filter((e) => e.endpoint === 'messages');
    expect(rows.map((e) => [e.agentId ?? null, e.parentAgentId ?? null])).toEqual([
      ['agent-7', 'agent-6'],
      [null, null],
    ]);
    // The session id never reaches an upstream (AFF-5); the agent id is Claude Code's own, forwarded as sent.
    for (const r of [...a.requests, ...b.requests]) expect(r.headers['x-claude-code-session-id']).toBeUndefined();
  });
});
