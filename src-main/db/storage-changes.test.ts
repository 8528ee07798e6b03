import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionDraft } from '../../src-shared/domain/connection';
import { ENGINE_STORES } from '../core/engine-stores';
import { openStorage, type Storage } from './storage';
import type { StorageChange } from './storage-changes';

const T0 = 1_700_000_000_000;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function open(): { storage: Storage; heard: StorageChange[] } {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-changes-'));
  const opened = openStorage(join(dir, 'leeway.sqlite'), dir, { now: T0, engines: ENGINE_STORES });
  if (!opened.ok) throw new Error(opened.error.message);
  const storage = opened.value;
  cleanups.push(() => {
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const heard: StorageChange[] = [];
  storage.changes.subscribe((topic) => heard.push(topic));
  return { storage, heard };
}

const draft = (name: string): ConnectionDraft => ({
  name,
  kind: 'anthropic',
  baseUrl: null,
  models: [],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: {},
});

describe('storage change events (issue 22)', () => {
  it('a write that changed rows announces its topic; one that changed nothing, and a key touch, announce nothing', () => {
    const { storage, heard } = open();
    const stored = storage.connections.upsert(draft('a'), T0);
    expect(heard).toEqual(['connections']);
    expect(storage.connections.remove('nobody')).toBe(false);
    expect(storage.combos.remove('nobody')).toBe(false);
    expect(storage.quotaPools.removePlan(stored.id)).toBe(false);
    expect(heard).toEqual(['connections']);
    const key = storage.keys.create({ name: 'laptop' }, T0);
    if (!key.ok) throw new Error(key.error.message);
    expect(storage.keys.create({ name: 'laptop' }, T0).ok).toBe(false);
    storage.keys.touch(key.value.key.id, T0 + 120_000);
    storage.routes.replace([{ match: '*', to: 'a' }]);
    storage.combos.upsert({ name: 'main', targets: [{ connection: 'a', model: null }] }, T0);
    storage.quotaPools.setPlan(stored.id, [{ unit: 'requests', window: 'hourly', limit: 10 }], T0);
    expect(heard).toEqual(['connections', 'keys', 'routes', 'combos', 'quotaPools']);
  });

  it('atomically: the changes are told once the transaction committed, and dropped when it rolled back', () => {
    const { storage, heard } = open();
    const during: StorageChange[][] = [];
    storage.atomically(() => {
      storage.connections.upsert(draft('a'), T0);
      storage.routes.replace([{ match: '*', to: 'a' }]);
      during.push([...heard]);
    });
    expect(during).toEqual([[]]);
    expect(heard).toEqual(['connections', 'routes']);
    expect(() =>
      storage.atomically(() => {
        storage.connections.upsert(draft('b'), T0);
        throw new Error('refused half-way');
      }),
    ).toThrow('refused half-way');
    expect(heard).toEqual(['connections', 'routes']);
    expect(storage.connections.getByName('b')).toBeNull();
  });
});
