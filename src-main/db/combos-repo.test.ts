import { afterEach, describe, expect, it } from 'vitest';
import { comboInputSchema } from '../../src-shared/domain/combo';
import { createMemoryDb } from '../testing/temp-db';
import { createCombosRepo } from './combos-repo';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function repo() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  let n = 0;
  return { db, combos: createCombosRepo(db, () => `combo-${++n}`) };
}

describe('combos repo', () => {
  it('ROUTE: round-trips a combo parsed from contract input, targets in order', () => {
    const { combos } = repo();
    const input = comboInputSchema.parse({
      name: 'coding',
      targets: ['work', { connection: 'home', model: 'claude-opus-4-1' }],
    });
    const saved = combos.upsert(input, 5);
    expect(saved).toEqual({
      id: 'combo-1',
      name: 'coding',
      targets: [
        { connection: 'work', model: null },
        { connection: 'home', model: 'claude-opus-4-1' },
      ],
      strategy: 'priority',
      createdAt: 5,
      updatedAt: 5,
    });
    expect(combos.getByName('coding')).toEqual(saved);
    expect(combos.getByName('other')).toBeNull();
  });

  it('ROUTE: upsert by name replaces targets but keeps id and creation time (names are unique)', () => {
    const { db, combos } = repo();
    combos.upsert({ name: 'c', targets: [{ connection: 'a', model: null }] }, 1);
    const updated = combos.upsert({ name: 'c', targets: [{ connection: 'b', model: 'm' }] }, 2);
    expect(updated).toMatchObject({
      id: 'combo-1',
      createdAt: 1,
      updatedAt: 2,
      targets: [{ connection: 'b', model: 'm' }],
    });
    expect(combos.list()).toHaveLength(1);
    expect(() =>
      db
        .prepare("INSERT INTO combos (id, name, targets_json, created_at, updated_at) VALUES ('x', 'c', '[]', 0, 0)")
        .run(),
    ).toThrow(/UNIQUE constraint failed: combos.name/);
  });

  it('ROUTE: lists by name and removes by name', () => {
    const { combos } = repo();
    combos.upsert({ name: 'zeta', targets: [{ connection: 'a', model: null }] }, 1);
    combos.upsert({ name: 'alpha', targets: [{ connection: 'a', model: null }] }, 1);
    expect(combos.list().map((c) => c.name)).toEqual(['alpha', 'zeta']);
    expect(combos.remove('zeta')).toBe(true);
    expect(combos.remove('zeta')).toBe(false);
    expect(combos.list().map((c) => c.name)).toEqual(['alpha']);
  });

  it('ISSUE9-STRATEGY: the strategy round-trips, a missing one keeps the stored value, and the column refuses others', () => {
    const { db, combos } = repo();
    const input = comboInputSchema.parse({ name: 'rr', targets: ['a', 'b'], strategy: 'round-robin' });
    expect(combos.upsert(input, 1).strategy).toBe('round-robin');
    expect(combos.upsert({ name: 'rr', targets: [{ connection: 'a', model: null }] }, 2).strategy).toBe('round-robin');
    expect(
      combos.upsert({ name: 'rr', targets: [{ connection: 'a', model: null }], strategy: 'priority' }, 3).strategy,
    ).toBe('priority');
    expect(combos.getByName('rr')?.strategy).toBe('priority');
    expect(() => db.prepare("UPDATE combos SET strategy = 'random'").run()).toThrow(/CHECK/);
  });
});
