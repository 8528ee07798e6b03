import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claudeSettingsPath,
  describeChange,
  planClaudeSettings,
  readClaudeSettings,
  undoClaudeSettings,
  writeClaudeSettings,
} from './setup-claude-settings';
import { diffLines } from './setup-diff';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'leeway-setup-'));
  dirs.push(d);
  return d;
}

const VALUES = { baseUrl: 'http://127.0.0.1:7431/', authToken: 'lw-local-key-0123456789' };

describe("Claude Code's settings.json (issue 13 §6)", () => {
  it('lives in $CLAUDE_CONFIG_DIR, else $HOME/.claude', () => {
    expect(claudeSettingsPath({ HOME: '/home/u' })).toBe('/home/u/.claude/settings.json');
    expect(claudeSettingsPath({ HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg' })).toBe('/cfg/settings.json');
  });

  it('sets the env block and keeps every other key and env entry in place; ANTHROPIC_API_KEY is taken out', () => {
    const current = {
      model: 'opus',
      env: { FOO: 'bar', ANTHROPIC_API_KEY: 'sk-ant-old-key-000000', ANTHROPIC_BASE_URL: 'https://old' },
      permissions: { allow: ['Bash(ls)'] },
    };
    const planned = planClaudeSettings(current, VALUES);
    expect(planned.ok && planned.value).toEqual({
      next: {
        model: 'opus',
        env: {
          FOO: 'bar',
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:7431',
          ANTHROPIC_AUTH_TOKEN: VALUES.authToken,
          CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
        },
        permissions: { allow: ['Bash(ls)'] },
      },
      removed: ['ANTHROPIC_API_KEY'],
    });
    expect(planClaudeSettings({ env: 'nope' }, VALUES).ok).toBe(false);
  });

  it('the preview is a diff with secrets masked, and says when nothing would change', () => {
    const current = { env: { ANTHROPIC_API_KEY: 'sk-ant-old-key-000000' } };
    const planned = planClaudeSettings(current, VALUES);
    if (!planned.ok) throw new Error('plan refused');
    const change = describeChange('/x/settings.json', current, planned.value.next, planned.value.removed);
    expect(change.env).toEqual({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:7431',
      ANTHROPIC_AUTH_TOKEN: 'lw-l…6789',
      CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
    });
    expect(change.diff.filter((l) => l.kind === 'removed').map((l) => l.text.trim())).toEqual([
      '"ANTHROPIC_API_KEY": "sk-a…0000"',
    ]);
    expect(change.diff.filter((l) => l.kind === 'added').map((l) => l.text.trim())).toEqual([
      '"ANTHROPIC_BASE_URL": "http://127.0.0.1:7431",',
      '"ANTHROPIC_AUTH_TOKEN": "lw-l…6789",',
      '"CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY": "1"',
    ]);
    expect(JSON.stringify(change)).not.toContain(VALUES.authToken);
    expect(JSON.stringify(change)).not.toContain('sk-ant-old-key-000000');
    expect(change.changes).toBe(true);
    const again = describeChange('/x/settings.json', planned.value.next, planned.value.next, []);
    expect(again.changes).toBe(false);
  });

  it('write backs up first; undo restores the backup byte for byte (and removes a file that was not there)', () => {
    const path = join(tempDir(), '.claude', 'settings.json');
    // No file yet: written (0600), undo removes it again.
    const planned = planClaudeSettings(null, VALUES);
    if (!planned.ok) throw new Error('plan refused');
    const first = writeClaudeSettings(path, null, planned.value.next, 1000);
    expect(first).toEqual({ ok: true, value: `${path}.leeway-backup-1000.absent` });
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(planned.value.next);
    expect(undoClaudeSettings(path)).toMatchObject({ ok: true, value: { removedFile: true } });
    expect(readdirSync(join(path, '..'))).toEqual([]);

    const original = '{\n    "model": "sonnet",\n    "env": { "FOO": "1" }\n}\n';
    writeFileSync(path, original);
    const read = readClaudeSettings(path);
    if (!read.ok || read.value === null) throw new Error('read refused');
    const next = planClaudeSettings(read.value, VALUES);
    if (!next.ok) throw new Error('plan refused');
    expect(writeClaudeSettings(path, read.value, next.value.next, 2000)).toEqual({
      ok: true,
      value: `${path}.leeway-backup-2000`,
    });
    expect(readFileSync(`${path}.leeway-backup-2000`, 'utf8')).toBe(original);
    expect(undoClaudeSettings(path)).toMatchObject({ ok: true, value: { removedFile: false } });
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(undoClaudeSettings(path)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('a file that is not a JSON object is refused and left alone; a symlinked file stays a symlink', () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{ broken');
    expect(readClaudeSettings(path)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(readFileSync(path, 'utf8')).toBe('{ broken');

    const dotfiles = join(dir, 'dotfiles');
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'claude.json'), '{}');
    const linked = join(dir, 'linked', 'settings.json');
    mkdirSync(join(dir, 'linked'));
    symlinkSync(join(dotfiles, 'claude.json'), linked);
    const planned = planClaudeSettings({}, VALUES);
    if (!planned.ok) throw new Error('plan refused');
    expect(writeClaudeSettings(linked, {}, planned.value.next, 3000).ok).toBe(true);
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dotfiles, 'claude.json'), 'utf8'))).toEqual(planned.value.next);
  });

  it('the line diff keeps order and marks only what changed', () => {
    expect(diffLines('a\nb\nc', 'a\nx\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
    ]);
    expect(diffLines('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
  });
});
