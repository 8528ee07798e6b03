// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { seed } from '../../testing/seed-core.real';
import { AgentSetupList } from './agent-setup-list';

afterEach(() => {
  cleanup();
  closeCores();
});

describe('the agents on the Setup tab against the real handlers on a temporary HOME (issue 23 §2)', () => {
  it('ISSUE-23: Apply merges into the real ~/.aider.conf.yml (comments kept), the status follows, Undo restores it byte for byte', async () => {
    const core = await startCore();
    const { plainKey } = await seed(core, 'keys.create', { name: 'laptop' });
    const file = `${core.home}/.aider.conf.yml`;
    core.homeFile.write('.aider.conf.yml', '# mine\ndark-mode: true\n');
    await renderWithCore(<AgentSetupList authToken={plainKey} />, core);
    const aider = () => screen.getByRole('article', { name: 'aider setup' });
    expect(aider().textContent).toContain('Not configured');

    fireEvent.click(within(aider()).getByRole('button', { name: 'Preview change' }));
    await flush();
    const diff = within(aider()).getByLabelText(`Change to ${file}`).textContent ?? '';
    expect(diff).toContain('+ openai-api-base: http://');
    // The preview masks the key it would write.
    expect(diff).not.toContain(plainKey);
    expect(core.homeFile.read('.aider.conf.yml')).toBe('# mine\ndark-mode: true\n');

    fireEvent.click(within(aider()).getByRole('button', { name: 'Apply' }));
    await flush();
    const written = core.homeFile.read('.aider.conf.yml') ?? '';
    expect(written).toContain('# mine\ndark-mode: true\n');
    expect(written).toContain(`openai-api-key: ${plainKey}`);
    expect(aider().textContent).toContain('Configured');

    fireEvent.click(within(aider()).getByRole('button', { name: 'Undo' }));
    await flush();
    expect(core.homeFile.read('.aider.conf.yml')).toBe('# mine\ndark-mode: true\n');
    expect(aider().textContent).toContain('Not configured');
  });

  it('ISSUE-23: a key that is not a local key is refused and nothing is written', async () => {
    const core = await startCore();
    await renderWithCore(<AgentSetupList authToken="lw-not-a-key-0000000000" />, core);
    const codex = screen.getByRole('article', { name: 'codex setup' });
    fireEvent.click(within(codex).getByRole('button', { name: 'Preview change' }));
    await flush();
    expect(within(codex).getByRole('alert').textContent).toContain('not a Leeway local key');
    expect(core.homeFile.read('.codex/config.toml')).toBeNull();
  });
});
