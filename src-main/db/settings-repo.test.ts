import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src-shared/domain/settings';
import { createMemoryDb } from '../testing/temp-db';
import { createSettingsRepo } from './settings-repo';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function repo() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  return { db, settings: createSettingsRepo(db) };
}

describe('settings repo', () => {
  it('PROD-6: returns the defaults on a fresh database', () => {
    expect(repo().settings.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('PROD-6: update stores the patched fields, keeps the others and survives a new repo', () => {
    const { db, settings } = repo();
    expect(settings.update({ paused: true, streamHeadersTimeoutMs: 30_000 })).toEqual({
      ...DEFAULT_SETTINGS,
      paused: true,
      streamHeadersTimeoutMs: 30_000,
    });
    expect(settings.update({ requestLogMaxRows: 1_000, paused: undefined })).toEqual({
      ...DEFAULT_SETTINGS,
      paused: true,
      streamHeadersTimeoutMs: 30_000,
      requestLogMaxRows: 1_000,
    });
    expect(createSettingsRepo(db).get()).toMatchObject({ paused: true, requestLogMaxRows: 1_000 });
  });

  it('PROD-6: a stored value that no longer validates falls back to its default alone', () => {
    const { db, settings } = repo();
    settings.update({ paused: true });
    const put = db.prepare('INSERT OR REPLACE INTO settings (key, value_json) VALUES (?, ?)');
    put.run('streamHeadersTimeoutMs', '5'); // below the minimum of 1000
    put.run('maxBodyBytes', '{not json');
    put.run('retiredSetting', 'true');
    expect(settings.get()).toEqual({ ...DEFAULT_SETTINGS, paused: true });
  });
});
