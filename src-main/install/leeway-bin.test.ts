import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeEnv, findClaude } from '../../bin/claude.mjs';
import { ENV_GROUPS, FLAGS } from '../../bin/help.mjs';
import { headlessArgs } from '../../bin/entry.mjs';
import { dataDirOf } from '../../bin/instance.mjs';
import { NODE_RUNTIME_FLAGS } from '../../bin/runtime-flags.mjs';
import { defaultDataDir, parseArgs } from '../cli/parse-args';
import { credentialsPath } from '../providers/claude-oauth/credentials-file';
import { envProxySettings } from '../providers/upstream-pools';
import { resolveQuotaConfig } from '../quota/engine/quota-config';
import { resolveResilienceSettings } from '../resilience/resilience-settings';
import { LEEWAY_VERSION } from '../kernel/version';

/*
 * The `leeway` command (package.json "bin", issue 13 §7): --version, and a --help that lists every
 * flag of the headless entry and every environment variable Leeway reads. Both lists are derived
 * from the source here: the variables the env readers actually touch (recorded through a Proxy, so
 * composed names like LEEWAY_CIRCUIT_BREAKER_OAUTH_THRESHOLD count) plus every literal env read
 * in src-main and bin/.
 */
const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'bin', 'leeway.mjs');

function run(args: string[], env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** An environment that remembers every variable name read from it (and answers from `values`). */
function recordingEnv(seen: Set<string>, values: Record<string, string> = {}): Record<string, string | undefined> {
  return new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, name) {
        if (typeof name !== 'string') return undefined;
        seen.add(name);
        return values[name];
      },
    },
  );
}

/** What the env readers of the core read, run with nothing set (and once with the redis driver). */
function recordedReads(): Set<string> {
  const seen = new Set<string>();
  parseArgs([], recordingEnv(seen), { dataDir: '/data' });
  for (const platform of ['linux', 'darwin', 'win32']) defaultDataDir(platform, recordingEnv(seen), '/home/u');
  resolveResilienceSettings({}, recordingEnv(seen));
  resolveQuotaConfig(null, recordingEnv(seen));
  resolveQuotaConfig(null, recordingEnv(seen, { QUOTA_STORE_DRIVER: 'redis' }));
  envProxySettings(recordingEnv(seen));
  credentialsPath(recordingEnv(seen), '/home/u');
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !/\.(test|d)\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

const LITERAL_READS = [
  /\b(?:process\.env|env)\.([A-Z][A-Z0-9_]+)\b/g,
  /\benv\[\s*['"`]([A-Z][A-Z0-9_]+)['"`]\s*\]/g,
  // Helpers called as read(env, 'NAME'): the name may be a suffix of a composed one.
  /\(\s*env\s*,\s*['"]([A-Z][A-Z0-9_]+)['"]/g,
];

/** Every env variable name written literally at a read in src-main (tests and fakes aside) and bin/. */
function literalReads(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [...sourceFiles(join(root, 'src-main')), ...sourceFiles(join(root, 'bin'))]) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of LITERAL_READS)
      for (const match of text.matchAll(pattern)) if (match[1]) found.set(match[1], relative(root, file));
  }
  return found;
}

const listed = ENV_GROUPS.flatMap(([, vars]) => vars.map(([name]) => name));

describe('leeway command', () => {
  it('PROD-1: --version prints the version of package.json and of the core', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; bin: unknown };
    expect(pkg.bin).toEqual({ leeway: 'bin/leeway.mjs' });
    const result = await run(['--version']);
    expect(result).toEqual({ code: 0, stdout: `Leeway ${pkg.version}\n`, stderr: '' });
    expect(pkg.version).toBe(LEEWAY_VERSION);
  });

  it('PROD-14: --help lists, one line each, every environment variable the source reads, and no other', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const recorded = [...recordedReads()];
    const literal = literalReads();
    // Sanity: the derivation sees the variables everyone knows are there.
    expect(recorded).toEqual(expect.arrayContaining(['LEEWAY_PORT', 'LEEWAY_CIRCUIT_BREAKER_LOCAL_RESET_MS']));
    expect([...literal.keys()]).toEqual(expect.arrayContaining(['LEEWAY_EGRESS_IP_LOCK_PROVIDERS', 'LEEWAY_KEY']));

    for (const name of recorded.filter((n) => /^[A-Z][A-Z0-9_]+$/.test(n)))
      expect(
        lines.filter((line) => line.trimStart().startsWith(`${name} `)),
        name,
      ).toHaveLength(1);
    // Lower-case forms (https_proxy …) are named beside their upper-case entry.
    for (const name of recorded.filter((n) => /^[a-z_]+$/.test(n))) expect(result.stdout, name).toContain(name);
    for (const [name, file] of literal) {
      const entry = listed.find((n) => n === name || n.endsWith(`_${name}`));
      expect(entry, `${name} (read in ${file})`).toBeDefined();
    }
    // And nothing listed that nobody reads.
    const read = new Set([...recorded, ...literal.keys()]);
    for (const name of listed) expect(read.has(name), `${name} is listed but never read`).toBe(true);
  });

  it('PROD-2: --help lists every flag the headless entry accepts, and only those', async () => {
    const source = readFileSync(join(root, 'src-main', 'cli', 'parse-args.ts'), 'utf8');
    const arrays = [...source.matchAll(/const (?:BOOLEAN|VALUE)_FLAGS = \[([^\]]*)\]/g)].map((m) => m[1] ?? '');
    const accepted = arrays.flatMap((list) => [...list.matchAll(/'(--[a-z-]+)'/g)].map((m) => m[1] ?? ''));
    expect(accepted).toEqual(expect.arrayContaining(['--port', '--config', '--headless']));
    const helped = FLAGS.flatMap(([flag]) => flag.split(/[ ,]+/).filter((token) => token.startsWith('-')));
    expect(new Set(helped)).toEqual(new Set([...accepted, '-h']));
    const result = await run(['-h']);
    for (const [flag] of FLAGS) expect(result.stdout).toContain(`  ${flag}`);
    for (const command of ['leeway [start]', 'leeway claude', 'leeway stop']) expect(result.stdout).toContain(command);
  });

  it('PROD-2: an unknown command is a usage error that points at --help', async () => {
    expect(await run(['launch'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Leeway: unknown command "launch" (see leeway --help)\n',
    });
  });

  it('issue 9 perf: the launcher runs the headless entry with its runtime flags, and node applies them (16 MB young generation)', async () => {
    const args = await headlessArgs({ LEEWAY_FROM_SOURCE: '1' });
    expect(args.slice(0, NODE_RUNTIME_FLAGS.length)).toEqual(NODE_RUNTIME_FLAGS);
    const newSpace = (flags: readonly string[]) => {
      const script =
        "const s = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); console.log(s ? s.space_size : 0)";
      return Number(spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).stdout.trim());
    };
    expect(newSpace(NODE_RUNTIME_FLAGS)).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    expect(newSpace([])).toBeLessThan(16 * 1024 * 1024);
  });

  it('PROD-3: the launcher finds the same data directory as the headless entry', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['linux', {}],
      ['linux', { XDG_CONFIG_HOME: '/xdg' }],
      ['linux', { XDG_CONFIG_HOME: 'relative' }],
      ['darwin', {}],
      ['win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }],
      ['win32', {}],
    ];
    for (const [platform, env] of cases)
      expect(dataDirOf(env, platform, '/home/u')).toBe(defaultDataDir(platform, env, '/home/u'));
    expect(dataDirOf({ LEEWAY_DATA_DIR: '/srv/leeway' }, 'linux', '/home/u')).toBe(
      parseArgs([], { LEEWAY_DATA_DIR: '/srv/leeway' }, { dataDir: 'x' }).ok ? '/srv/leeway' : 'parse failed',
    );
  });

  it('PROD-10: Claude Code gets the proxy URL and the local key as ANTHROPIC_AUTH_TOKEN, never a real ANTHROPIC_API_KEY', () => {
    const env = claudeEnv({ ANTHROPIC_API_KEY: 'sk-ant-real', HOME: '/h' }, 'http://127.0.0.1:7431', 'lw-local');
    expect(env).toEqual({ HOME: '/h', ANTHROPIC_BASE_URL: 'http://127.0.0.1:7431', ANTHROPIC_AUTH_TOKEN: 'lw-local' });
  });

  it('PROD-10: claude on PATH wins; without one, the Claude Code package installed beside Leeway runs', () => {
    const installed = findClaude({ PATH: '/nonexistent' });
    expect(installed).toMatch(/@anthropic-ai[\\/]claude-code[\\/]bin[\\/]claude/);
    const onPath = findClaude({ PATH: ['/nonexistent', join(root, 'node_modules', '.bin')].join(':') });
    expect(onPath).toBe(join(root, 'node_modules', '.bin', 'claude'));
  });
});
