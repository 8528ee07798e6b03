import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaudeCodeSetupResult, ClaudeCodeSetupStatus } from '../../../src-shared/contract/methods';
import { startLeeway, type RunningLeeway } from '../../testing/start-leeway';

let h: RunningLeeway | null = null;
let home = '';
const saved = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'leeway-home-'));
  // The handler reads HOME per call, as Claude Code does: the test's HOME is a throwaway one.
  process.env.HOME = home;
  delete process.env.CLAUDE_CONFIG_DIR;
});
afterEach(async () => {
  await h?.stop();
  h = null;
  process.env.HOME = saved.HOME;
  if (saved.CLAUDE_CONFIG_DIR === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = saved.CLAUDE_CONFIG_DIR;
  rmSync(home, { recursive: true, force: true });
});

async function call(method: string, input?: unknown) {
  if (!h) throw new Error('not started');
  return h.core.router.call(method, input);
}

describe('"Configure Claude Code" (issue 13 §6)', () => {
  it('PROD-10 PROD-13: writes the env block into $HOME/.claude/settings.json, backup first, and undo restores it', async () => {
    h = await startLeeway({ connections: [] });
    const settings = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    const original = `${JSON.stringify({ theme: 'dark', env: { KEEP: 'me', ANTHROPIC_API_KEY: 'sk-ant-real-00000000' } }, null, 4)}\n`;
    writeFileSync(settings, original);

    const preview = await call('setup.claudeCodePreview', { authToken: h.key });
    expect(preview).toMatchObject({
      ok: true,
      value: { path: settings, exists: true, changes: true, removed: ['ANTHROPIC_API_KEY'] },
    });
    // Previewing writes nothing.
    expect(readFileSync(settings, 'utf8')).toBe(original);

    const applied = await call('setup.configureClaudeCode', { authToken: h.key });
    if (!applied.ok) throw new Error(applied.error.message);
    const result = applied.value as ClaudeCodeSetupResult;
    expect(result.backupPath).toMatch(/settings\.json\.leeway-backup-\d+$/);
    expect(readFileSync(result.backupPath ?? '', 'utf8')).toBe(original);
    const written = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({
      theme: 'dark',
      env: {
        KEEP: 'me',
        ANTHROPIC_BASE_URL: h.url,
        ANTHROPIC_AUTH_TOKEN: h.key,
        CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
      },
    });
    expect(JSON.stringify(result)).not.toContain(h.key);

    // Applying the same again changes nothing and makes no second backup.
    const again = await call('setup.configureClaudeCode', { authToken: h.key });
    expect(again).toMatchObject({ ok: true, value: { changes: false, backupPath: null } });
    expect(readdirSync(join(home, '.claude')).filter((n) => n.includes('leeway-backup'))).toHaveLength(1);

    expect(await call('setup.undoClaudeCode')).toMatchObject({
      ok: true,
      value: { path: settings, removedFile: false },
    });
    expect(readFileSync(settings, 'utf8')).toBe(original);
  });

  it('creates the file (and ~/.claude) when absent; undo removes it again; a key that is not a local key is refused', async () => {
    h = await startLeeway({ connections: [] });
    const settings = join(home, '.claude', 'settings.json');
    expect(await call('setup.configureClaudeCode', { authToken: 'lw-not-a-key-000000000' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(existsSync(settings)).toBe(false);
    const applied = await call('setup.configureClaudeCode', { authToken: h.key });
    expect(applied).toMatchObject({ ok: true, value: { exists: false, changes: true } });
    expect(existsSync(settings)).toBe(true);
    expect(await call('setup.undoClaudeCode')).toMatchObject({ ok: true, value: { removedFile: true } });
    expect(existsSync(settings)).toBe(false);
    expect(await call('setup.undoClaudeCode')).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('CLAUDE_CONFIG_DIR wins over HOME, as in Claude Code', async () => {
    // Set before the start: the entry reads the environment once (issue 22).
    const configDir = join(home, 'elsewhere');
    process.env.CLAUDE_CONFIG_DIR = configDir;
    h = await startLeeway({ connections: [] });
    const preview = await call('setup.claudeCodePreview', { authToken: h.key });
    expect(preview).toMatchObject({ ok: true, value: { path: join(configDir, 'settings.json'), exists: false } });
  });

  it('issue 21 §17: the status the Setup tab asks on load (over the admin API) reports the backup on disk, so Undo survives a reload', async () => {
    h = await startLeeway({ connections: [] });
    const leeway = h;
    const settings = join(home, '.claude', 'settings.json');
    const status = async () => {
      const res = await fetch(`${leeway.url}/api/rpc/setup.claudeCodeStatus`, {
        method: 'POST',
        headers: { authorization: `Bearer ${leeway.adminToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      return (await res.json()) as { ok: boolean; value: ClaudeCodeSetupStatus };
    };
    expect(await status()).toEqual({ ok: true, value: { path: settings, configured: false, backup: null } });

    mkdirSync(join(home, '.claude'));
    writeFileSync(settings, '{"theme":"dark"}\n');
    const applied = await call('setup.configureClaudeCode', { authToken: h.key });
    if (!applied.ok) throw new Error(applied.error.message);
    const backupPath = (applied.value as ClaudeCodeSetupResult).backupPath ?? '';
    // A new page load: nothing of the first page's state, only what is on disk.
    const reloaded = await status();
    expect(reloaded).toEqual({
      ok: true,
      value: {
        path: settings,
        configured: true,
        backup: { path: backupPath, at: expect.any(Number), removesFile: false },
      },
    });
    expect(JSON.stringify(reloaded)).not.toContain(h.key);

    expect(await call('setup.undoClaudeCode')).toMatchObject({ ok: true, value: { restoredFrom: backupPath } });
    expect(await status()).toEqual({ ok: true, value: { path: settings, configured: false, backup: null } });
  });
});
