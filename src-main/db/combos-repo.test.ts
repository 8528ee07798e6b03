import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { COMBO_STRATEGIES, comboInputSchema } from '../../src-shared/domain/combo';
import { createMemoryDb } from '../testing/temp-db';
import { createCombosRepo } from './combos-repo';
import { findMigrationsDir, migrate } from './migrate';
import { openDatabase } from './open';

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
    expect(() => db.prepare("UPDATE combos SET strategy = 'sticky'").run()).toThrow(/CHECK/);
  });

  it('ROUTE-1: every one of the 19 public strategies is stored and read back; quota-share is refused by the column', () => {
    const { db, combos } = repo();
    expect(COMBO_STRATEGIES).toHaveLength(19);
    for (const strategy of COMBO_STRATEGIES)
      expect(
        combos.upsert({ name: `c-${strategy}`, targets: [{ connection: 'a', model: null }], strategy }, 1).strategy,
      ).toBe(strategy);
    expect(
      combos
        .list()
        .map((c) => c.strategy)
        .sort(),
    ).toEqual([...COMBO_STRATEGIES].sort());
    expect(() =>
      db
        .prepare(
          "INSERT INTO combos (id, name, targets_json, created_at, updated_at, strategy) VALUES ('q', 'q', '[]', 0, 0, 'quota-share')",
        )
        .run(),
    ).toThrow(/CHECK constraint failed/);
  });

  it('ROUTE-1: a weighted combo keeps each target weight; a weight outside 1..100 in the column reads as absent', () => {
    const { db, combos } = repo();
    const input = comboInputSchema.parse({
      name: 'w',
      strategy: 'weighted',
      targets: [{ connection: 'a', weight: 3 }, { connection: 'b' }],
    });
    expect(combos.upsert(input, 1).targets).toEqual([
      { connection: 'a', model: null, weight: 3 },
      { connection: 'b', model: null },
    ]);
    db.prepare(
      `UPDATE combos SET targets_json = '[{"connection":"a","model":null,"weight":0}]' WHERE name = 'w'`,
    ).run();
    expect(combos.getByName('w')?.targets).toEqual([{ connection: 'a', model: null }]);
    expect(comboInputSchema.safeParse({ name: 'x', targets: [{ connection: 'a', weight: 0 }] }).success).toBe(false);
  });

  it('ROUTE-1: migration 0010 rebuilds the combos table and keeps every row of a version-9 database', () => {
    const shipped = findMigrationsDir(fileURLToPath(new URL('.', import.meta.url)));
    if (!shipped) throw new Error('migrations folder not found');
    const upTo9 = mkdtempSync(join(tmpdir(), 'leeway-mig10-'));
    closers.push(() => rmSync(upTo9, { recursive: true, force: true }));
    for (const f of readdirSync(shipped).filter((f) => /^000\d_/.test(f)))
      copyFileSync(join(shipped, f), join(upTo9, f));
    const db = openDatabase(':memory:');
    closers.push(() => db.close());
    expect(migrate(db, upTo9).ok).toBe(true);
    db.prepare(
      `INSERT INTO combos (id, name, targets_json, created_at, updated_at, strategy) VALUES ('k1', 'kept', '[{"connection":"a","model":"m"}]', 3, 4, 'round-robin')`,
    ).run();
    expect(() => db.prepare("UPDATE combos SET strategy = 'p2c'").run()).toThrow(/CHECK constraint failed/);
    const ten = mkdtempSync(join(tmpdir(), 'leeway-mig10b-'));
    closers.push(() => rmSync(ten, { recursive: true, force: true }));
    for (const f of readdirSync(shipped).filter((f) => /^(000\d|0010)_/.test(f)))
      copyFileSync(join(shipped, f), join(ten, f));
    expect(migrate(db, ten).ok).toBe(true);
    const combos = createCombosRepo(db);
    expect(combos.getByName('kept')).toEqual({
      id: 'k1',
      name: 'kept',
      targets: [{ connection: 'a', model: 'm' }],
      strategy: 'round-robin',
      createdAt: 3,
      updatedAt: 4,
    });
    expect(
      combos.upsert({ name: 'kept', targets: [{ connection: 'a', model: 'm' }], strategy: 'p2c' }, 5).strategy,
    ).toBe('p2c');
  });
});
