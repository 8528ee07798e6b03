import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_IDS, type AgentId } from '../../src-shared/domain/agent-setup';
import { AGENT_FIXTURES } from './agent-fixtures.testkit';
import { createAgentSetupService } from './agent-setup-service';

const PROXY = 'http://127.0.0.1:7431';
const KEY = 'lw-local-key-0123456789abcdef';
const VALUES = { key: KEY, models: ['claude-sonnet-4-5', 'glm-4.6', 'coder'] };

const homes: string[] = [];
afterEach(() => {
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(proxyUrl = PROXY, now = 1_000) {
  const home = mkdtempSync(join(tmpdir(), 'leeway-agents-'));
  homes.push(home);
  let clock = now;
  const make = (url: string) =>
    createAgentSetupService({ env: () => ({ HOME: home }), now: () => clock++, proxyUrl: () => url });
  const at = (path: string) => join(home, path);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(at(path)), { recursive: true });
    writeFileSync(at(path), text);
  };
  /** Every file under HOME with its bytes: proves "nothing written" and "restored byte for byte". */
  const snapshot = (): Record<string, string> =>
    Object.fromEntries(
      (
        readdirSync(home, { recursive: true, withFileTypes: true }) as {
          name: string;
          parentPath: string;
          isFile(): boolean;
        }[]
      )
        .filter((e) => e.isFile())
        .map((e) => [
          join(e.parentPath, e.name).slice(home.length + 1),
          readFileSync(join(e.parentPath, e.name)).toString('base64'),
        ]),
    );
  return { home, service: make(proxyUrl), make, at, write, snapshot, read: (p: string) => readFileSync(at(p), 'utf8') };
}

const statusOf = (s: ReturnType<typeof setup>['service'], agent: AgentId) => s.list().find((a) => a.agent === agent);

describe.each(AGENT_IDS)('ISSUE-23 §2 one-click setup of %s', (agent) => {
  const fixture = AGENT_FIXTURES[agent];

  it('ISSUE-23: on a fresh HOME, preview writes nothing, apply creates the files, status says configured, undo removes them again', () => {
    const t = setup();
    expect(statusOf(t.service, agent)).toMatchObject({ state: 'not-configured', backup: null });
    const preview = t.service.preview(agent, VALUES);
    expect(preview.ok && preview.value.changes).toBe(true);
    expect(t.snapshot()).toEqual({});

    const applied = t.service.apply(agent, VALUES);
    if (!applied.ok) throw new Error(applied.error.message);
    expect(applied.value.backups.length).toBeGreaterThan(0);
    const status = statusOf(t.service, agent);
    expect(status).toMatchObject({ state: 'configured', detail: null });
    expect(status?.paths.every((p) => existsSync(p))).toBe(true);
    expect(status?.backup?.files.every((f) => f.removesFile)).toBe(true);

    const undone = t.service.undo(agent);
    expect(undone.ok && undone.value.restored.every((r) => r.removedFile)).toBe(true);
    expect(t.snapshot()).toEqual({});
    expect(statusOf(t.service, agent)).toMatchObject({ state: 'not-configured', backup: null });
  });

  it('ISSUE-23: apply onto existing files keeps every other setting; a second apply writes nothing; undo restores byte for byte', () => {
    const t = setup();
    for (const [path, text] of Object.entries(fixture.existing)) t.write(path, text);
    const before = t.snapshot();

    const applied = t.service.apply(agent, VALUES);
    if (!applied.ok) throw new Error(applied.error.message);
    fixture.keptAndAdded(t.read, PROXY, KEY);
    expect(statusOf(t.service, agent)?.state).toBe('configured');

    const again = t.service.apply(agent, VALUES);
    expect(again.ok && again.value).toMatchObject({ changes: false, backups: [] });

    expect(t.service.undo(agent).ok).toBe(true);
    expect(t.snapshot()).toEqual(before);
  });

  it('ISSUE-23: the preview shows the change with the key masked', () => {
    const t = setup();
    const preview = t.service.preview(agent, VALUES);
    if (!preview.ok) throw new Error(preview.error.message);
    const text = JSON.stringify(preview.value.files);
    expect(text).not.toContain(KEY);
    expect(
      preview.value.files.some((f) => f.diff.some((l) => l.kind === 'added' && l.text.includes('127.0.0.1:7431'))),
    ).toBe(true);
  });

  it('ISSUE-23: a broken existing file is refused with its path, and nothing is written or backed up', () => {
    const t = setup();
    t.write(fixture.broken.path, fixture.broken.text);
    const before = t.snapshot();
    for (const result of [t.service.preview(agent, VALUES), t.service.apply(agent, VALUES)]) {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('invalid_input');
        expect(result.error.message).toContain(t.at(fixture.broken.path));
        expect(result.error.message).toContain('nothing was changed');
      }
    }
    expect(t.snapshot()).toEqual(before);
    expect(statusOf(t.service, agent)).toMatchObject({ state: 'unreadable' });
  });

  it('ISSUE-23: files written for another Leeway say "elsewhere" with that URL', () => {
    const t = setup('http://127.0.0.1:9999');
    expect(t.service.apply(agent, VALUES).ok).toBe(true);
    const status = statusOf(t.make(PROXY), agent);
    expect(status?.state).toBe('elsewhere');
    expect(status?.detail).toContain('127.0.0.1:9999');
  });

  it('ISSUE-23: the snippet names the real proxy URL, and a placeholder without a key', () => {
    const t = setup();
    const snippet = t.service.snippet(agent, null);
    expect(snippet.text).toContain('127.0.0.1:7431');
    expect(snippet.text).toContain('<your-leeway-key>');
    expect(t.service.snippet(agent, KEY).text).toContain(KEY);
  });
});

describe('ISSUE-23 §2 undo', () => {
  it('ISSUE-23: with nothing applied, undo is not_found and touches nothing', () => {
    const t = setup();
    const undone = t.service.undo('codex');
    expect(undone.ok ? null : undone.error.code).toBe('not_found');
  });

  it('ISSUE-23: two applies (other URLs) undo one at a time, newest first', () => {
    const t = setup();
    t.write('.aider.conf.yml', 'dark-mode: true\n');
    const original = t.read('.aider.conf.yml');
    expect(t.make('http://127.0.0.1:1111').apply('aider', VALUES).ok).toBe(true);
    const first = t.read('.aider.conf.yml');
    expect(t.service.apply('aider', VALUES).ok).toBe(true);
    expect(t.service.undo('aider').ok).toBe(true);
    expect(t.read('.aider.conf.yml')).toBe(first);
    expect(t.service.undo('aider').ok).toBe(true);
    expect(t.read('.aider.conf.yml')).toBe(original);
  });
});
