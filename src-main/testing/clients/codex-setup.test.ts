import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSetupService } from '../../setup/agent-setup-service';
import { openaiConnection } from '../start-leeway';
import { useClientHarness } from './client-harness';
import { codexMissingReason, findCodexBinary, type CodexRun } from './codex-binary';

/*
 * Issue 23 §2: what "Apply" writes to ~/.codex/config.toml is what the real codex 0.169 reads. codex
 * runs with that HOME and only LEEWAY_KEY in its environment: no `-c` overrides, no `-m`; the model
 * comes from the user's own line in the same file, which Apply kept.
 */
const harness = useClientHarness();
const binary = findCodexBinary();
const missing = codexMissingReason();
if (missing) console.warn(`Skipping the codex setup test: ${missing}`);

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function runCodexAt(home: string, key: string, prompt: string): Promise<CodexRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    LEEWAY_KEY: key,
  };
  return new Promise((resolve) => {
    const child = execFile(
      binary ?? '',
      ['exec', '--skip-git-repo-check', prompt],
      { env, cwd: home, timeout: 20_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

describe('codex set up by Leeway (issue 23 §2)', () => {
  it.skipIf(!binary)(
    'ISSUE-23: codex 0.169 reads the written config.toml alone: its request reaches the upstream through Leeway',
    async () => {
      const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
      upstream.setDefault({ kind: 'ok', text: 'hi from glm through the written config' });
      const leeway = await harness.leeway({ connections: [openaiConnection('glm', upstream.url)] });
      const home = mkdtempSync(join(tmpdir(), 'leeway-codex-setup-'));
      homes.push(home);
      mkdirSync(join(home, '.codex'));
      writeFileSync(join(home, '.codex', 'config.toml'), '# mine\nmodel = "glm-4.6"\n');

      const service = createAgentSetupService({
        env: () => ({ HOME: home }),
        now: Date.now,
        proxyUrl: () => leeway.url,
      });
      const applied = service.apply('codex', { key: leeway.key, models: [] });
      expect(applied.ok).toBe(true);
      expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).not.toContain(leeway.key);

      const run = await runCodexAt(home, leeway.key, 'say hi');

      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('hi from glm through the written config');
      const chats = upstream.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/chat/completions'));
      expect(chats.length).toBeGreaterThanOrEqual(1);
      expect(chats[0]?.json).toMatchObject({ model: 'glm-4.6' });
    },
    30_000,
  );
});
