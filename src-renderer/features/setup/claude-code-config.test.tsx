// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../api/render-with-fake';
import { ClaudeCodeConfig } from './claude-code-config';
import { createFakeSetupState, withFakeSetup } from './fake-setup-handlers';

afterEach(() => cleanup());

describe('Configure Claude Code (issue 13 §6)', () => {
  it('PROD-13: previews the settings.json change, applies it only when asked, and undo restores the file', async () => {
    const state = createFakeSetupState({ settings: '{\n  "theme": "dark"\n}\n' });
    const { inputsOf } = await renderWithFake(<ClaudeCodeConfig suggestedKey="lw-created-key-000000" />, {
      wrap: withFakeSetup(state),
    });
    const before = state.settings;
    fireEvent.click(screen.getByRole('button', { name: 'Preview change' }));
    await flush();
    expect(inputsOf('setup.claudeCodePreview')).toEqual([{ authToken: 'lw-created-key-000000' }]);
    const diff = screen.getByLabelText('Change to settings.json');
    expect(diff.textContent).toContain('+   "env": {');
    expect(diff.textContent).toContain('"theme": "dark"');
    expect(screen.getByText(/Will change/).textContent).toContain('/home/user/.claude/settings.json');
    // Nothing is written by a preview.
    expect(state.settings).toBe(before);

    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await flush();
    expect(state.settings).toContain('ANTHROPIC_AUTH_TOKEN');
    expect(screen.getByRole('status').textContent).toMatch(/previous state is in .*leeway-backup-1/);

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush();
    expect(state.settings).toBe(before);
    expect(screen.getByRole('status').textContent).toMatch(/Restored .*settings\.json from/);
  });

  it("PROD-13: shows the core's refusal of a key that is not a local key, and writes nothing", async () => {
    const state = createFakeSetupState();
    const { inputsOf } = await renderWithFake(<ClaudeCodeConfig suggestedKey={null} />, { wrap: withFakeSetup(state) });
    const preview = screen.getByRole('button', { name: 'Preview change' });
    expect((preview as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Local key'), { target: { value: 'sk-ant-not-local' } });
    fireEvent.click(preview);
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('not a Leeway local key');
    expect(inputsOf('setup.configureClaudeCode')).toEqual([]);
    expect(state.settings).toBeNull();
  });
});
