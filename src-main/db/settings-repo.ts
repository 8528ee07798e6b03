import {
  DEFAULT_SETTINGS,
  settingsPatchSchema,
  type Settings,
  type SettingsPatch,
} from '../../src-shared/domain/settings';
import type { Database } from './open';

/** Persisted settings: the defaults overlaid with what the user changed. */
export interface SettingsRepo {
  get(): Settings;
  /** Stores every field present in `patch` and returns the resulting settings. */
  update(patch: SettingsPatch): Settings;
}

interface SettingRow {
  key: string;
  value_json: string;
}

/**
 * Validates one stored field on its own, so a value an older version wrote that no longer passes
 * (renamed field, tightened range) falls back to its default instead of hiding every other field.
 */
function readField(row: SettingRow): SettingsPatch {
  let value: unknown;
  try {
    value = JSON.parse(row.value_json) as unknown;
  } catch {
    return {};
  }
  const parsed = settingsPatchSchema.safeParse({ [row.key]: value });
  return parsed.success ? parsed.data : {};
}

/** Creates the repository, preparing every statement once. */
export function createSettingsRepo(db: Database): SettingsRepo {
  const selectAll = db.prepare<[], SettingRow>('SELECT key, value_json FROM settings');
  const upsertRow = db.prepare<[SettingRow]>(
    'INSERT INTO settings (key, value_json) VALUES (@key, @value_json) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json',
  );

  const get = (): Settings => {
    const settings: Settings = { ...DEFAULT_SETTINGS };
    for (const row of selectAll.all()) Object.assign(settings, readField(row));
    return settings;
  };

  const writeAll = db.transaction((patch: SettingsPatch) => {
    for (const [key, value] of Object.entries(patch)) {
      // `{ paused: undefined }` means "not in this patch", not "reset": skip it.
      if (value === undefined) continue;
      upsertRow.run({ key, value_json: JSON.stringify(value) });
    }
  });

  return {
    get,
    update: (patch) => {
      writeAll(patch);
      return get();
    },
  };
}
