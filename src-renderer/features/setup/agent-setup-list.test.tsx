// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAgentStatuses } from '../../testing/fake-agent-statuses';
import { flush, renderWithFake } from '../../testing/render-with-fake';
import { AgentSetupList } from './agent-setup-list';

afterEach(() => cleanup());

const row = (title: string) => screen.getByRole('article', { name: `${title} setup` });

describe('the Setup tab: other coding agents (issue 23 §2)', () => {
  it('ISSUE-23: lists every agent with its status, its files and its note', async () => {
    const agents = fakeAgentStatuses().map((a) =>
      a.agent === 'codex'
        ? { ...a, state: 'elsewhere' as const, detail: 'http://127.0.0.1:9999/v1' }
        : a.agent === 'aider'
          ? { ...a, state: 'unreadable' as const, detail: '/home/user/.aider.conf.yml is not valid YAML (line 1)' }
          : a,
    );
    await renderWithFake(<AgentSetupList authToken="" />, { seed: { agents } });
    expect(screen.getAllByRole('article').map((a) => a.querySelector('h3')?.textContent)).toEqual([
      'codex',
      'opencode',
      'Qwen Code',
      'Gemini CLI',
      'aider',
    ]);
    expect(row('codex').textContent).toContain('Configured for another URL: http://127.0.0.1:9999/v1');
    expect(row('opencode').textContent).toContain('Not configured');
    expect(row('Gemini CLI').textContent).toContain('/home/user/.gemini/.env');
    expect(row('aider').textContent).toContain(
      'Cannot read its settings: /home/user/.aider.conf.yml is not valid YAML',
    );
    // No key yet: nothing to preview with.
    expect(within(row('codex')).getByRole('button', { name: 'Preview change' })).toHaveProperty('disabled', true);
  });

  it('ISSUE-23: preview, apply (status becomes configured, Undo appears), undo', async () => {
    const { inputsOf } = await renderWithFake(<AgentSetupList authToken="lw-key-0123456789" />);
    fireEvent.click(within(row('Qwen Code')).getByRole('button', { name: 'Preview change' }));
    await flush();
    expect(inputsOf('setup.agent.preview')).toEqual([{ agent: 'qwen-code', authToken: 'lw-key-0123456789' }]);
    expect(within(row('Qwen Code')).getByLabelText('Change to /home/user/.qwen/.env').textContent).toContain(
      '+ leeway',
    );

    fireEvent.click(within(row('Qwen Code')).getByRole('button', { name: 'Apply' }));
    await flush();
    expect(row('Qwen Code').textContent).toContain('Configured');
    expect(within(row('Qwen Code')).getByRole('status').textContent).toContain('previous state is in');

    fireEvent.click(within(row('Qwen Code')).getByRole('button', { name: 'Undo' }));
    await flush();
    expect(inputsOf('setup.agent.undo')).toEqual([{ agent: 'qwen-code' }]);
    expect(row('Qwen Code').textContent).toContain('Not configured');
    expect(within(row('Qwen Code')).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('ISSUE-23: "Show snippet" asks the core for the snippet with the key, and offers to copy it', async () => {
    const { inputsOf } = await renderWithFake(<AgentSetupList authToken="lw-key-0123456789" />);
    fireEvent.click(within(row('aider')).getByRole('button', { name: 'Show snippet' }));
    await flush();
    expect(inputsOf('setup.agent.snippet')).toEqual([{ agent: 'aider', authToken: 'lw-key-0123456789' }]);
    expect(row('aider').querySelector('pre')?.textContent).toBe('key = lw-key-0123456789');
    expect(within(row('aider')).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });
});
