import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { settingsPatchSchema, type Settings, type SettingsPatch } from '../../src-shared/domain/settings';
import type { SettingsRepo } from '../db/settings-repo';

export type SettingsListener = (next: Settings, previous: Settings) => void;

/**
 * The one live settings object (issue 22): read on every request without touching SQLite or
 * allocating, written through to the repository, and whatever must react to a change (the quota
 * store's driver, say) subscribes instead of being called by the handler that wrote it.
 */
export interface SettingsService {
  /** The settings in force: the same object until the next update. */
  get(): Settings;
  /** Stores every field present in `patch`; a field out of range is `invalid_input`. A disk that refuses throws. */
  update(patch: SettingsPatch): Result<Settings>;
  /** Heard after each update, with what was in force before; returns the unsubscribe. */
  subscribe(listener: SettingsListener): () => void;
}

export function createSettingsService(repo: SettingsRepo): SettingsService {
  let current = repo.get();
  const listeners = new Set<SettingsListener>();
  return {
    get: () => current,
    update(patch) {
      const checked = settingsPatchSchema.safeParse(patch);
      if (!checked.success) {
        const issues = checked.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
        return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
      }
      const previous = current;
      current = repo.update(checked.data);
      for (const listener of listeners) listener(current, previous);
      return ok(current);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
