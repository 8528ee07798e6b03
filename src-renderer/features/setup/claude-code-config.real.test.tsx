// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RendererCore } from '../../../src-main/testing/renderer-core';
import { closeCores, renderWithCore, startCore } from '../../testing/render-with-core.real';
import { flush } from '../../testing/render-with-fake';
import { seed } from '../../testing/seed-core.real';
import { ClaudeCodeConfig } from './claude-code-config';

afterEach(() => {
  cleanup();
  closeCores();
});

/** The key field is the Setup tab's; here it starts with a key, as after "Create" in the Keys tab. */
function Config({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <ClaudeCodeConfig value={value} onChange={setValue} />;
}

/** A real core with one live local key, and its plain key. */
async function coreWithKey(): Promise<{ core: RendererCore; key: string }> {
  const core = await startCore();
  const created = await seed(core, 'keys.create', { name: 'laptop' });
  return { core, key: created.plainKey };
}

describe('Configure Claude Code (issue 13 §6), against the real handlers on a temporary HOME', () => {
  it('PROD-13: previews the settings.json change, applies it only when asked, and undo restores the file', async () => {
    const { core, key } = await coreWithKey();
    core.claudeSettings.write('{\n  "theme": "dark"\n}\n');
    const before = core.claudeSettings.read();
    const { inputsOf } = await renderWithCore(<Config initial={key} />, core);
    fireEvent.click(screen.getByRole('button', { name: 'Preview change' }));
    await flush();
    expect(inputsOf('setup.claudeCodePreview')).toEqual([{ authToken: key }]);
    const diff = screen.getByLabelText('Change to settings.json');
    expect(diff.textContent).toContain('+   "env": {');
    expect(diff.textContent).toContain('"theme": "dark"');
    expect(screen.getByText(/Will change/).textContent).toContain(core.claudeSettings.path);
    // Nothing is written by a preview.
    expect(core.claudeSettings.read()).toBe(before);

    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await flush();
    expect(core.claudeSettings.read()).toContain('ANTHROPIC_AUTH_TOKEN');
    expect(screen.getByRole('status').textContent).toMatch(/previous state is in .*leeway-backup-\d+/);

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush();
    expect(core.claudeSettings.read()).toBe(before);
    expect(screen.getByRole('status').textContent).toMatch(/Restored .*settings\.json from/);
    // The one backup is used up: nothing left to undo.
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it("PROD-13: shows the core's refusal of a key that is not a local key, and writes nothing", async () => {
    const { core } = await coreWithKey();
    const { inputsOf } = await renderWithCore(<Config />, core);
    const preview = screen.getByRole('button', { name: 'Preview change' });
    expect((preview as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Local key'), { target: { value: 'sk-ant-not-local' } });
    fireEvent.click(preview);
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('not a Leeway local key');
    expect(inputsOf('setup.configureClaudeCode')).toEqual([]);
    expect(core.claudeSettings.read()).toBeNull();
  });

  it('issue 21 §17: after a reload, the backup the core finds on disk still offers Undo, and Undo restores it', async () => {
    const { core, key } = await coreWithKey();
    const original = '{\n  "theme": "dark"\n}\n';
    // What an earlier page left: the file configured for Leeway, the previous one kept as a backup.
    core.claudeSettings.write(original);
    await seed(core, 'setup.configureClaudeCode', { authToken: key });
    const { inputsOf } = await renderWithCore(<Config />, core);
    expect(inputsOf('setup.claudeCodeStatus')).toHaveLength(1);
    const earlier = screen.getByLabelText('Earlier change');
    expect(earlier.textContent).toContain('Claude Code goes through this Leeway');
    expect(earlier.textContent).toMatch(/settings\.json\.leeway-backup-\d+/);

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush();
    expect(core.claudeSettings.read()).toBe(original);
    expect(screen.getByRole('status').textContent).toMatch(/Restored .*settings\.json from .*leeway-backup-\d+/);
    expect(screen.queryByLabelText('Earlier change')).toBeNull();
  });

  it('issue 21 §17: a file Leeway created offers an Undo that removes it, after a reload too', async () => {
    const { core, key } = await coreWithKey();
    await seed(core, 'setup.configureClaudeCode', { authToken: key });
    await renderWithCore(<Config />, core);
    expect(screen.getByLabelText('Earlier change').textContent).toContain('Undo removes it again');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush();
    expect(core.claudeSettings.read()).toBeNull();
  });
});
