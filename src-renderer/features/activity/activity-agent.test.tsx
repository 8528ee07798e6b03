// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithFake } from '../../testing/render-with-fake';
import { activityEntry } from './activity-fixtures';
import { ActivityTab } from './activity-tab';

afterEach(cleanup);

const text = (el: HTMLElement): string => el.textContent.replace(/\s+/g, ' ').trim();

describe('Activity: Claude Code subagents (issue 23 §3)', () => {
  it('ISSUE-23: a subagent’s row is marked, and its detail names the agent and the agent that started it', async () => {
    await renderWithFake(<ActivityTab />, {
      seed: {
        activity: [
          activityEntry(1),
          activityEntry(2, { agentId: 'a17040171d7a4ad2d', parentAgentId: null }),
          activityEntry(3, { agentId: 'a3724b9a0a3e8653d', parentAgentId: 'a17040171d7a4ad2d' }),
        ],
      },
    });
    expect(within(screen.getByTestId('request-1')).queryByText('subagent')).toBeNull();
    const marked = within(screen.getByTestId('request-2')).getByText('subagent');
    expect(marked.getAttribute('title')).toBe('Sent by Claude Code subagent a17040171d7a4ad2d');

    fireEvent.click(screen.getByRole('button', { name: 'Details of request 3' }));
    const nested = screen.getByRole('dialog', { name: 'Request 3' });
    const agent = within(nested).getByText('Agent').nextElementSibling;
    if (!(agent instanceof HTMLElement)) throw new Error('no agent value');
    expect(text(agent)).toBe('Claude Code subagent a3724b9a0a3e8653d started by subagent a17040171d7a4ad2d');
    fireEvent.click(within(nested).getByRole('button', { name: 'Close' }));

    fireEvent.click(screen.getByRole('button', { name: 'Details of request 2' }));
    const first = screen.getByRole('dialog', { name: 'Request 2' });
    const value = within(first).getByText('Agent').nextElementSibling;
    if (!(value instanceof HTMLElement)) throw new Error('no agent value');
    expect(text(value)).toBe('Claude Code subagent a17040171d7a4ad2d started by the main agent');
    fireEvent.click(within(first).getByRole('button', { name: 'Close' }));

    fireEvent.click(screen.getByRole('button', { name: 'Details of request 1' }));
    expect(within(screen.getByRole('dialog', { name: 'Request 1' })).queryByText('Agent')).toBeNull();
  });
});
