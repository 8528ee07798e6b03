// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, renderWithFake } from '../../api/render-with-fake';
import { ClaudeCodeConfig } from './claude-code-config';
import { createFakeSetupState, withFakeSetup } from './fake-setup-handlers';

afterEach(() => cleanup());

/** The key field is the Setup tab's; here it starts with a key, as after "Create" in the Keys tab. */
function Config({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <ClaudeCodeConfig value={value} onChange={setValue} />;
}

describe('Configure Claude Code (issue 13 §6)', () => {
  it('PROD-13: previews the settings.json change, applies it only when asked, and undo restores the file', async () => {
    const state = createFakeSetupState({ settings: '{\n  "theme": "dark"\n}\n' });
    const { inputsOf } = await renderWithFake(<Config initial="lw-created-key-000000" />, {
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
    // The one backup is used up: nothing left to undo.
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it("PROD-13: shows the core's refusal of a key that is not a local key, and writes nothing", async () => {
    const state = createFakeSetupState();
    const { inputsOf } = await renderWithFake(<Config />, { wrap: withFakeSetup(state) });
    const preview = screen.getByRole('button', { name: 'Preview change' });
    expect((preview as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Local key'), { target: { value: 'sk-ant-not-local' } });
    fireEvent.click(preview);
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('not a Leeway local key');
    expect(inputsOf('setup.configureClaudeCode')).toEqual([]);
    expect(state.settings).toBeNull();
  });

  it('issue 21 §17: after a reload, the backup the core finds on disk still offers Undo, and Undo restores it', async () => {
    const original = '{\n  "theme": "dark"\n}\n';
    // What an earlier page left: the file configured for Leeway, the previous one kept as a backup.
    const state = createFakeSetupState({
      settings: '{\n  "env": {\n    "ANTHROPIC_BASE_URL": "http://127.0.0.1:7431"\n  }\n}\n',
      backups: [original],
    });
    const { inputsOf } = await renderWithFake(<Config />, { wrap: withFakeSetup(state) });
    expect(inputsOf('setup.claudeCodeStatus')).toHaveLength(1);
    const earlier = screen.getByLabelText('Earlier change');
    expect(earlier.textContent).toContain('Claude Code goes through this Leeway');
    expect(earlier.textContent).toContain('settings.json.leeway-backup-1');

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush();
    expect(state.settings).toBe(original);
    expect(screen.getByRole('status').textContent).toMatch(/Restored .*settings\.json from .*leeway-backup-1/);
    expect(screen.queryByLabelText('Earlier change')).toBeNull();
  });

  it('issue 21 §17: a file Leeway created offers an Undo that removes it, after a reload too', async () => {
    const state = createFakeSetupState({ settings: '{}\n', backups: [null] });
    await renderWithFake(<Config />, { wrap: withFakeSetup(state) });
    expect(screen.getByLabelText('Earlier change').textContent).toContain('Undo removes it again');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush();
    expect(state.settings).toBeNull();
  });
});
