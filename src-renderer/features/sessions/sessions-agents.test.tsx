// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionPinView } from '../../../src-shared/domain/affinity';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { SessionsTab } from './sessions-tab';

afterEach(cleanup);

const NOW = Date.now();
const pin = (session: string, agent: string | null, connection: string, ago: number): SessionPinView => ({
  keyName: 'laptop',
  session,
  agent,
  target: 'route:*',
  connection,
  createdAt: NOW - ago,
  lastServedAt: NOW - ago,
  expiresAt: NOW + 30 * 60_000,
});

const rowTexts = (): string[] =>
  within(screen.getByRole('table', { name: 'Session pins' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      [...row.querySelectorAll('td')]
        .slice(0, 4)
        .map((td) => td.textContent.replace(/\s+/g, ' ').trim())
        .join(' | '),
    );

describe('sessions tab: Claude Code subagents (issue 23 §3)', () => {
  it('ISSUE-23 AFF-4: pins are grouped by session, then agent, whatever order they arrive in', async () => {
    await renderWithFake(<SessionsTab />, {
      seed: {
        pins: [
          pin('s-1', 'agent-b', 'max-2', 0),
          pin('s-2', null, 'max-1', 1_000),
          pin('s-1', null, 'max-1', 2_000),
          pin('s-1', 'agent-a', 'max-1', 3_000),
          pin('s-3', 'agent-c', 'max-2', 4_000),
        ],
      },
    });
    expect(rowTexts()).toEqual([
      's-1 | laptop | route:* | max-1',
      '↳ subagent agent-a | laptop | route:* | max-1',
      '↳ subagent agent-b | laptop | route:* | max-2',
      's-2 | laptop | route:* | max-1',
      // A session whose only pins are its subagents' still heads its group.
      's-3 (laptop; only its subagents hold pins)',
      '↳ subagent agent-c | laptop | route:* | max-2',
    ]);
  });

  it('ISSUE-23: clearing a subagent’s pin names its session and agent, and leaves the session’s own pin', async () => {
    const { inputsOf } = await renderWithFake(<SessionsTab />, {
      seed: { pins: [pin('s-1', null, 'max-1', 0), pin('s-1', 'agent-a', 'max-2', 1_000)] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Clear pin of subagent agent-a' }));
    await flush();
    expect(inputsOf('sessions.clear')).toEqual([
      { target: 'pin', keyName: 'laptop', session: 's-1', scope: 'route:*', agent: 'agent-a' },
    ]);
    expect(rowTexts()).toEqual(['s-1 | laptop | route:* | max-1']);
  });
});
