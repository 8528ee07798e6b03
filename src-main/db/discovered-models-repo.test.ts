import { afterEach, describe, expect, it } from 'vitest';
import { connectionInputSchema } from '../../src-shared/domain/connection';
import type { SecretBox } from '../secrets/secret-box';
import { createMemoryDb } from '../testing/temp-db';
import { createConnectionsRepo } from './connections-repo';
import { createDiscoveredModelsRepo } from './discovered-models-repo';

const box: SecretBox = { kind: 'fake', seal: (plain) => plain, open: (sealed) => sealed };
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function setup() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  const connections = createConnectionsRepo(db, box, () => 'c-1');
  const saved = connections.upsert(
    connectionInputSchema.parse({
      name: 'glm',
      kind: 'openai-compatible',
      baseUrl: 'https://glm.test/v4',
      secret: { type: 'api-key', apiKey: 'k-0123456789' },
    }),
    1,
  );
  return { db, connections, saved, repo: createDiscoveredModelsRepo(db) };
}

describe('discovered models repo (issue 13 §5, migration 0016)', () => {
  it('keeps one list per connection across a reopen of the repository, replaced whole on save', () => {
    const { db, saved, repo } = setup();
    const entry = {
      connectionId: saved.id,
      baseUrl: saved.effectiveBaseUrl,
      models: [{ id: 'glm-4.6', displayName: null, createdAt: 1_715_367_049_000 }],
      fetchedAt: 10,
      attemptedAt: 10,
      lastError: null,
    };
    repo.save(entry);
    expect(createDiscoveredModelsRepo(db).loadAll()).toEqual([entry]);
    const failed = { ...entry, attemptedAt: 20, lastError: 'Upstream answered 503' };
    repo.save(failed);
    expect(repo.loadAll()).toEqual([failed]);
  });

  it('goes with its connection, and a corrupt list reads as empty', () => {
    const { db, connections, saved, repo } = setup();
    repo.save({ connectionId: saved.id, baseUrl: 'x', models: [], fetchedAt: null, attemptedAt: 1, lastError: 'x' });
    db.prepare("UPDATE discovered_models SET models_json = '{oops'").run();
    expect(repo.loadAll()[0]?.models).toEqual([]);
    connections.remove('glm');
    expect(db.prepare('SELECT count(*) AS n FROM discovered_models').get()).toEqual({ n: 0 });
    expect(() =>
      repo.save({ connectionId: 'gone', baseUrl: 'x', models: [], fetchedAt: null, attemptedAt: 1, lastError: null }),
    ).toThrow(/FOREIGN KEY/);
  });
});
