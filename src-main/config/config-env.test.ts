import { buildSnapshot } from '../quota/pool-snapshot';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCombosRepo } from '../db/combos-repo';
import { createConnectionsRepo } from '../db/connections-repo';
import { createKeysRepo } from '../db/keys-repo';
import { createQuotaPoolsRepo } from '../db/quota-pools-repo';
import { createRoutesRepo } from '../db/routes-repo';
import { startLeeway } from '../testing/start-leeway';
import { createMemoryDb } from '../testing/temp-db';
import { describeAppliedConfig } from './applied-line';
import { applyConfig, type AppliedConfig } from './apply-config';
import { substituteEnv } from './env-substitution';
import { loadConfig, parseConfig } from './load-config';

/** `${ENV_VAR}` in the config file and the one line `--config` prints (issue 13 §8). */
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function repos() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  const box = { kind: 'plain-test', seal: (plain: string) => plain, open: (sealed: string) => sealed };
  return {
    db,
    connections: createConnectionsRepo(db, box),
    keys: createKeysRepo(db),
    combos: createCombosRepo(db),
    routes: createRoutesRepo(db),
    quotaPools: createQuotaPoolsRepo(db, buildSnapshot),
  };
}

const FILE = {
  connections: [
    { name: 'team-key', kind: 'anthropic', apiKey: '${TEAM_KEY}' },
    {
      name: 'glm',
      kind: 'openai-compatible',
      baseUrl: 'https://${GLM_HOST}/api/paas/v4',
      apiKey: '${GLM_KEY}',
      models: ['glm-4.6'],
    },
  ],
  keys: [{ name: 'claude-code', key: '${LEEWAY_LOCAL_KEY}' }],
  combos: [{ name: 'main', targets: ['team-key', 'glm'] }],
};
const ENV = {
  TEAM_KEY: 'sk-ant-api03-from-env',
  GLM_KEY: 'glm-from-env',
  GLM_HOST: 'open.bigmodel.cn',
  LEEWAY_LOCAL_KEY: 'lw-from-the-environment',
};

describe('environment variables in the config file', () => {
  it('issue 13 §8: a whole value "${NAME}" and a value containing ${NAME} are both replaced before validation', () => {
    const result = parseConfig(JSON.stringify(FILE), new Set(), undefined, ENV);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const [team, glm] = result.value.connections;
    expect(team?.secret).toEqual({ type: 'api-key', apiKey: 'sk-ant-api03-from-env' });
    expect(glm?.baseUrl).toBe('https://open.bigmodel.cn/api/paas/v4');
    expect(glm?.secret).toEqual({ type: 'api-key', apiKey: 'glm-from-env' });
    expect(result.value.keys[0]?.key).toBe('lw-from-the-environment');
  });

  it('issue 13 §8: an unset variable stops the load, naming the path and the variable but never a value', () => {
    const result = parseConfig(JSON.stringify(FILE), new Set(), undefined, { TEAM_KEY: 'sk-ant-secret-value' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: 'connections.1.baseUrl', message: 'environment variable GLM_HOST is not set' },
      { path: 'connections.1.apiKey', message: 'environment variable GLM_KEY is not set' },
      { path: 'keys.0.key', message: 'environment variable LEEWAY_LOCAL_KEY is not set' },
    ]);
    expect(JSON.stringify(result.problems)).not.toContain('sk-ant-secret-value');
  });

  it('issue 21 §17: an unset variable is reported with every other problem of the file, not alone', () => {
    const file = {
      connections: [
        { name: 'team-key', kind: 'anthropic', apiKey: '${TEAM_KEY}' },
        { name: 'glm', kind: 'openai-compatible', baseUrl: 'https://${GLM_HOST}/v4', apiKey: 'k', models: ['glm'] },
        { name: 'bad', kind: 'no-such-kind', apiKey: 'k' },
      ],
      combos: [{ name: 'main', targets: ['team-key', 'ghost'] }],
      extra: true,
    };
    const result = parseConfig(JSON.stringify(file), new Set(), undefined, {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const paths = result.problems.map((p) => p.path);
    expect(result.problems.slice(0, 2)).toEqual([
      { path: 'connections.0.apiKey', message: 'environment variable TEAM_KEY is not set' },
      { path: 'connections.1.baseUrl', message: 'environment variable GLM_HOST is not set' },
    ]);
    expect(paths).toEqual(expect.arrayContaining(['extra', 'combos.0.targets.1']));
    expect(paths.some((p) => p.startsWith('connections.2'))).toBe(true);
    // The URL still holding "${GLM_HOST}" is not also called an invalid URL: the variable is the cause.
    expect(paths.filter((p) => p.startsWith('connections.1'))).toEqual(['connections.1.baseUrl']);
  });

  it('issue 13 §8: $${ writes a literal ${, a lone ${ is a problem, a set-but-empty variable is used as empty', () => {
    const env = { EMPTY: '' };
    expect(substituteEnv({ a: 'pa$${NOT_A_VAR}ss', b: ['x${EMPTY}y'], c: 3, d: null }, env)).toEqual({
      value: { a: 'pa${NOT_A_VAR}ss', b: ['xy'], c: 3, d: null },
      problems: [],
    });
    expect(substituteEnv({ k: 'abc${ not a name }' }, env).problems).toEqual([
      { path: 'k', message: 'a "${" must start ${NAME} (write $${ for a literal "${")' },
    ]);
    // Object keys stay as written, and "__proto__" stays an ordinary key.
    const keyed = substituteEnv(JSON.parse('{"${EMPTY}": "v", "__proto__": {"x": "${EMPTY}"}}'), env).value;
    expect(Object.keys(keyed as object)).toEqual(['${EMPTY}', '__proto__']);
    expect(Object.getPrototypeOf(keyed)).toBe(Object.prototype);
  });

  it('issue 13 §8: the file is read with the environment the entry read once at start (issue 22)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-cfg-env-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'leeway.json');
    writeFileSync(file, JSON.stringify({ connections: [{ name: 'a', kind: 'anthropic', apiKey: '${O4_TEST_KEY}' }] }));
    expect(loadConfig(file, new Set(), undefined, {})).toMatchObject({
      ok: false,
      problems: [{ path: 'connections.0.apiKey' }],
    });
    const loaded = loadConfig(file, new Set(), undefined, { O4_TEST_KEY: 'sk-ant-api03-process-env' });
    expect(loaded.ok && loaded.value.connections[0]?.secret).toEqual({
      type: 'api-key',
      apiKey: 'sk-ant-api03-process-env',
    });
    // Through the core: startLeeway reads process.env as headless.ts does, once, before the start.
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-cfg-env-'));
    closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
    process.env.O4_TEST_KEY = 'sk-ant-api03-process-env';
    try {
      const h = await startLeeway(
        { connections: [{ name: 'a', kind: 'anthropic', apiKey: '${O4_TEST_KEY}' }] },
        { dataDir },
      );
      const listed = await h.core.router.call('connections.list', undefined);
      await h.stop();
      expect(listed).toMatchObject({ ok: true, value: [{ name: 'a', secretHint: expect.any(String) }] });
    } finally {
      delete process.env.O4_TEST_KEY;
    }
  });
});

describe('a start with a missing variable', () => {
  it('issue 13 §8: the core refuses to start, listing the path and the variable like any config problem', async () => {
    const config = { connections: [{ name: 'a', kind: 'anthropic', apiKey: '${O4_SURELY_UNSET_VARIABLE}' }] };
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-cfg-env-'));
    closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await expect(startLeeway(config, { dataDir })).rejects.toThrow(
      /Invalid config file .*\n {2}connections\.0\.apiKey: environment variable O4_SURELY_UNSET_VARIABLE is not set/,
    );
  });
});

describe('a start with a missing variable and other problems', () => {
  it('issue 21 §17: the refusal lists the unset variable and every other problem of the file', async () => {
    const config = {
      connections: [
        { name: 'a', kind: 'anthropic', apiKey: '${O4_SURELY_UNSET_VARIABLE}' },
        { name: 'b', kind: 'no-such-kind' },
      ],
      combos: [{ name: 'main', targets: ['a', 'missing'] }],
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-cfg-env-'));
    closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const refusal = await startLeeway(config, { dataDir }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(refusal).toContain('connections.0.apiKey: environment variable O4_SURELY_UNSET_VARIABLE is not set');
    expect(refusal).toContain('combos.0.targets.1: unknown connection "missing"');
    expect(refusal).toMatch(/\n {2}connections\.1/);
  });
});

describe('what --config applied', () => {
  it('issue 13 §8: a first apply upserts everything; the same file again changes nothing; a changed secret counts as upserted', () => {
    const r = repos();
    const load = (env: Record<string, string>) => {
      const result = parseConfig(JSON.stringify(FILE), new Set(), undefined, env);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      return result.value;
    };
    const first = applyConfig(r, load(ENV), 1);
    expect(first).toEqual({
      ok: true,
      value: { connections: 2, keys: 1, combos: 1, routes: null, pools: 0, plans: 0, unchanged: 0 },
    });
    expect(applyConfig(r, load(ENV), 2)).toMatchObject({ ok: true, value: { unchanged: 4 } });
    const rotated = applyConfig(
      r,
      load({ ...ENV, GLM_KEY: 'glm-rotated', LEEWAY_LOCAL_KEY: 'lw-rotated-local-key' }),
      3,
    );
    expect(rotated).toMatchObject({ ok: true, value: { unchanged: 2 } });
    expect(r.connections.getByName('glm')?.secret).toEqual({ type: 'api-key', apiKey: 'glm-rotated' });
  });

  it('issue 13 §8: the line names counts per kind, the unchanged ones, routes and the file, and no secret', () => {
    const applied = (patch: Partial<AppliedConfig>): AppliedConfig => ({
      connections: 0,
      keys: 0,
      combos: 0,
      routes: null,
      pools: 0,
      plans: 0,
      unchanged: 0,
      ...patch,
    });
    expect(describeAppliedConfig(applied({ connections: 3, keys: 1, combos: 2, unchanged: 4 }), './leeway.json')).toBe(
      'config: 3 connections, 1 key, 2 combos upserted (4 unchanged) from ./leeway.json',
    );
    expect(describeAppliedConfig(applied({ connections: 1, pools: 2, plans: 1 }), 'c.json')).toBe(
      'config: 1 connection, 2 pools, 1 plan upserted from c.json',
    );
    expect(describeAppliedConfig(applied({ keys: 2, unchanged: 2, routes: 1 }), 'c.json')).toBe(
      'config: 2 keys upserted (all unchanged), routes replaced (1 route) from c.json',
    );
    expect(describeAppliedConfig(applied({ routes: 0 }), 'c.json')).toBe(
      'config: nothing upserted, routes replaced (0 routes) from c.json',
    );
  });
});
