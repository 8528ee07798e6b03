import { describe, expect, it } from 'vitest';
import { baseSessionOf, extractAgent, pinSessionOf, subagentModeOf } from './agent-key';

describe('subagent keys (issue 23 §3)', () => {
  it('ISSUE-23: reads the agent id and its parent as Claude Code sends them; the main agent sends neither', () => {
    expect(extractAgent({ 'x-claude-code-session-id': 's' })).toBeNull();
    expect(extractAgent({ 'x-claude-code-agent-id': 'a1b2' })).toEqual({ agent: 'a1b2', parent: null });
    expect(extractAgent({ 'x-claude-code-agent-id': [' a2 ', 'x'], 'x-claude-code-parent-agent-id': 'a1' })).toEqual({
      agent: 'a2',
      parent: 'a1',
    });
  });

  it('ISSUE-23: an unusable agent id counts as absent; an unusable parent as none', () => {
    expect(extractAgent({ 'x-claude-code-agent-id': 'has space' })).toBeNull();
    expect(extractAgent({ 'x-claude-code-agent-id': 'x'.repeat(300) })).toBeNull();
    expect(extractAgent({ 'x-claude-code-agent-id': 'a', 'x-claude-code-parent-agent-id': '' })).toEqual({
      agent: 'a',
      parent: null,
    });
  });

  it('ISSUE-23 AFF-7: share keeps the session key; spread makes it session/agent unless that is too long to store', () => {
    expect(pinSessionOf('s', 'a', 'share')).toEqual({ session: 's' });
    expect(pinSessionOf('s', null, 'spread')).toEqual({ session: 's' });
    expect(pinSessionOf('s', 'a', 'spread')).toEqual({ session: 's/a', agent: 'a' });
    expect(pinSessionOf('s'.repeat(200), 'a'.repeat(60), 'spread')).toEqual({ session: 's'.repeat(200) });
  });

  it('ISSUE-23: the route that decided names the mode; no route or no option shares', () => {
    const routes = [
      { match: '*haiku*', to: 'cheap', subagents: 'spread' as const },
      { match: '*', to: 'main' },
    ];
    expect(subagentModeOf(routes, '*haiku*')).toBe('spread');
    expect(subagentModeOf(routes, '*')).toBe('share');
    expect(subagentModeOf(routes, null)).toBe('share');
  });

  it('ISSUE-23: a stored pin’s session without its agent part, also when the session itself has a slash', () => {
    expect(baseSessionOf({ session: 'team/s/a', agent: 'a' })).toBe('team/s');
    expect(baseSessionOf({ session: 'team/s' })).toBe('team/s');
  });
});
