import { buildSnapshot } from '../quota/pool-snapshot';
import { afterEach, describe, expect, it } from 'vitest';
import { createCombosRepo } from '../db/combos-repo';
import { createConnectionsRepo } from '../db/connections-repo';
import { createKeysRepo } from '../db/keys-repo';
import { createQuotaPoolsRepo } from '../db/quota-pools-repo';
import { createRoutesRepo } from '../db/routes-repo';
import { createMemoryDb } from '../testing/temp-db';
import { applyConfig } from './apply-config';
import { parseConfig } from './load-config';

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

const GLM = {
  name: 'glm',
  kind: 'openai-compatible',
  baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
  apiKey: 'glm-k',
};

describe('config file: translation switches', () => {
  it('ISSUE-12: "acceptTranslated": false and "responsesApi": true reach the stored connection', () => {
    const parsed = parseConfig(
      JSON.stringify({
        connections: [
          { ...GLM, acceptTranslated: false, responsesApi: true },
          { name: 'oa', kind: 'openai', apiKey: 'sk-oa', responsesApi: false },
          { name: 'team', kind: 'anthropic', apiKey: 'sk-ant-api03-aaaa' },
        ],
      }),
      new Set(),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.connections[0]).toMatchObject({ acceptTranslated: false, responsesApi: true });
    const r = repos();
    expect(applyConfig(r, parsed.value, 1).ok).toBe(true);
    expect(r.connections.getByName('glm')).toMatchObject({ acceptTranslated: false, responsesApi: true });
    expect(r.connections.getByName('oa')).toMatchObject({ responsesApi: false });
    // Left out of the file: translated requests are accepted and Responses goes by kind.
    const team = r.connections.getByName('team');
    expect(team?.acceptTranslated).toBeUndefined();
    expect(team?.responsesApi).toBeUndefined();
  });

  it('ISSUE-12: "responsesApi": null means by kind, and a non-boolean switch is a problem at its path', () => {
    const ok = parseConfig(JSON.stringify({ connections: [{ ...GLM, responsesApi: null }] }), new Set());
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(ok.value.connections[0]?.responsesApi).toBeNull();

    const bad = parseConfig(
      JSON.stringify({ connections: [{ ...GLM, acceptTranslated: 'no', responsesApi: 'native' }] }),
      new Set(),
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems.map((p) => p.path)).toEqual(
      expect.arrayContaining(['connections.0.acceptTranslated', 'connections.0.responsesApi']),
    );
  });
});
