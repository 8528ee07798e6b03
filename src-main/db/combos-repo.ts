import { randomUUID } from 'node:crypto';
import {
  comboStrategySchema,
  type ComboStrategy,
  type ComboTarget,
  type ComboView,
} from '../../src-shared/domain/combo';
import { isRecord, parseJsonArray } from '../kernel/json-columns';
import type { Database } from './open';

/** Persistence of combos: a named, ordered list of connection (× model) targets. */
export interface CombosRepo {
  /** All combos by name. */
  list(): ComboView[];
  getByName(name: string): ComboView | null;
  /** Inserts or replaces by name, keeping the id and creation time of an existing combo. */
  /** A missing `strategy` keeps an existing combo's (a new one gets `priority`). */
  upsert(input: ComboUpsert, now: number): ComboView;
  remove(name: string): boolean;
  /** Gives the combo `id` a new name in place (issue 13 §8); the caller checks the name is free. */
  rename(id: string, name: string, now: number): ComboView | null;
  /** A renamed connection: every target naming `from` names `to`; returns how many combos changed. */
  renameConnection(from: string, to: string, now: number): number;
}

export interface ComboUpsert {
  name: string;
  targets: ComboTarget[];
  strategy?: ComboStrategy;
}

interface ComboRow {
  id: string;
  name: string;
  targets_json: string;
  strategy: string;
  created_at: number;
  updated_at: number;
}

/** Reads targets back, skipping entries that are not `{ connection, model }` (never written by us). */
function parseTargets(text: string): ComboTarget[] {
  const targets: ComboTarget[] = [];
  for (const entry of parseJsonArray(text)) {
    if (!isRecord(entry) || typeof entry.connection !== 'string') continue;
    const target: ComboTarget = {
      connection: entry.connection,
      model: typeof entry.model === 'string' ? entry.model : null,
    };
    // `weighted` (ROUTE-1): a stored weight outside 1..100 is not ours and reads as absent (1).
    const w = entry.weight;
    if (typeof w === 'number' && Number.isInteger(w) && w >= 1 && w <= 100) target.weight = w;
    targets.push(target);
  }
  return targets;
}

function toView(row: ComboRow): ComboView {
  return {
    id: row.id,
    name: row.name,
    targets: parseTargets(row.targets_json),
    // The column's CHECK allows only known values; a newer Leeway's value reads as the default.
    strategy: comboStrategySchema.catch('priority').parse(row.strategy),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Creates the repository, preparing every statement once. */
export function createCombosRepo(db: Database, newId: () => string = randomUUID): CombosRepo {
  const selectAll = db.prepare<[], ComboRow>('SELECT * FROM combos ORDER BY name');
  const selectByName = db.prepare<[string], ComboRow>('SELECT * FROM combos WHERE name = ?');
  const deleteByName = db.prepare<[string]>('DELETE FROM combos WHERE name = ?');
  const upsertRow = db.prepare<[ComboRow]>(`
    INSERT INTO combos (id, name, targets_json, strategy, created_at, updated_at)
    VALUES (@id, @name, @targets_json, @strategy, @created_at, @updated_at)
    ON CONFLICT (name) DO UPDATE SET targets_json = excluded.targets_json, strategy = excluded.strategy,
      updated_at = excluded.updated_at`);

  const selectById = db.prepare<[string], ComboRow>('SELECT * FROM combos WHERE id = ?');
  const updateName = db.prepare<[string, number, string]>('UPDATE combos SET name = ?, updated_at = ? WHERE id = ?');
  const updateTargets = db.prepare<[string, number, string]>(
    'UPDATE combos SET targets_json = ?, updated_at = ? WHERE id = ?',
  );

  const renameConnection = db.transaction((from: string, to: string, now: number): number => {
    let changed = 0;
    for (const row of selectAll.all()) {
      const entries = parseJsonArray(row.targets_json);
      let touched = false;
      // Rewrites the stored entries themselves, so fields this version does not read survive too.
      const next = entries.map((entry) => {
        if (!isRecord(entry) || entry.connection !== from) return entry;
        touched = true;
        return { ...entry, connection: to };
      });
      if (!touched) continue;
      updateTargets.run(JSON.stringify(next), now, row.id);
      changed++;
    }
    return changed;
  });

  const upsert = db.transaction((input: ComboUpsert, now: number): ComboView => {
    const existing = selectByName.get(input.name);
    // Normalise to exactly { connection, model, weight? } so stray fields never reach the column.
    const targets = input.targets.map(({ connection, model, weight }) =>
      weight === undefined ? { connection, model } : { connection, model, weight },
    );
    upsertRow.run({
      id: existing?.id ?? newId(),
      name: input.name,
      targets_json: JSON.stringify(targets),
      strategy: input.strategy ?? existing?.strategy ?? 'priority',
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    const saved = selectByName.get(input.name);
    if (!saved) throw new Error(`combo ${input.name} vanished inside its own transaction`);
    return toView(saved);
  });

  return {
    list: () => selectAll.all().map(toView),
    getByName: (name) => {
      const row = selectByName.get(name);
      return row ? toView(row) : null;
    },
    upsert: (input, now) => upsert(input, now),
    remove: (name) => deleteByName.run(name).changes > 0,
    rename(id, name, now) {
      if (updateName.run(name, now, id).changes === 0) return null;
      const row = selectById.get(id);
      return row ? toView(row) : null;
    },
    renameConnection: (from, to, now) => renameConnection(from, to, now),
  };
}
