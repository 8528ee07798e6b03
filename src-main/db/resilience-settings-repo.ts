import type { StoredResiliencePatch } from '../resilience/resilience-settings';
import type { Database } from './open';

const KEY = 'resilience';

/** The resilience settings a person changed, as one row of the settings table (LOCK-10 persistence). */
export interface ResilienceSettingsRepo {
  get(): StoredResiliencePatch;
  set(patch: StoredResiliencePatch): void;
}

export function createResilienceSettingsRepo(db: Database): ResilienceSettingsRepo {
  const select = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?');
  const upsert = db.prepare(
    'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json',
  );
  return {
    get() {
      const row = select.get(KEY);
      if (!row) return {};
      try {
        const value: unknown = JSON.parse(row.value_json);
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as StoredResiliencePatch)
          : {};
      } catch {
        return {};
      }
    },
    set: (patch) => void upsert.run(KEY, JSON.stringify(patch)),
  };
}
