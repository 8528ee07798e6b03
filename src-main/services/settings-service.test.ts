import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings, type SettingsPatch } from '../../src-shared/domain/settings';
import type { SettingsRepo } from '../db/settings-repo';
import { createSettingsService } from './settings-service';

/** A repository in memory that counts its reads. */
function memoryRepo(): SettingsRepo & { reads(): number } {
  let stored: Settings = { ...DEFAULT_SETTINGS };
  let reads = 0;
  return {
    get: () => {
      reads += 1;
      return stored;
    },
    update: (patch: SettingsPatch) => (stored = { ...stored, ...patch }),
    reads: () => reads,
  };
}

describe('the live settings object (issue 22)', () => {
  it('get() is the same object until an update, without reading the repository again', () => {
    const repo = memoryRepo();
    const settings = createSettingsService(repo);
    const first = settings.get();
    expect(settings.get()).toBe(first);
    expect(repo.reads()).toBe(1);
    const updated = settings.update({ paused: true });
    expect(updated).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, paused: true } });
    expect(settings.get()).not.toBe(first);
    expect(settings.get().paused).toBe(true);
  });

  it('subscribers hear each update with what was in force before; an invalid patch is refused and heard by none', () => {
    const settings = createSettingsService(memoryRepo());
    const heard: [boolean, boolean][] = [];
    const unsubscribe = settings.subscribe((next, previous) => heard.push([next.paused, previous.paused]));
    settings.update({ paused: true });
    const refused = settings.update({ sessionAffinityTtlMs: -1 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    unsubscribe();
    settings.update({ paused: false });
    expect(heard).toEqual([[true, false]]);
  });
});
