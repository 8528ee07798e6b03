import { ENGINE_STORES } from '../core/engine-stores';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_LEASE_BOOK } from '../routing/leases/lease-book';
import { openStorage, type Storage } from './storage';

const T0 = 1_700_000_000_000;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function open(dir: string, now = T0): Storage {
  const opened = openStorage(join(dir, 'leeway.sqlite'), dir, { now, engines: ENGINE_STORES });
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

describe('storage', () => {
  it('AFF-4: close flushes the written-behind pins, so they are there after a restart; expired ones are dropped at open', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-storage-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = open(dir);
    const key = first.keys.create({ name: 'laptop' }, T0);
    if (!key.ok) throw new Error(key.error.message);
    const connection = first.connections.upsert(
      {
        name: 'main',
        kind: 'anthropic',
        baseUrl: null,
        models: [],
        modelAliases: {},
        priority: 1,
        enabled: true,
        maxConcurrent: null,
        disableCooling: false,
        providerSpecificData: {},
      },
      T0,
    );
    const base = {
      keyId: key.value.key.id,
      target: 'main',
      connectionId: connection.id,
      createdAt: T0,
      lastServedAt: T0,
    };
    first.affinity.put({ ...base, session: 'long', expiresAt: T0 + 3_600_000 });
    first.affinity.put({ ...base, session: 'short', expiresAt: T0 + 1_000 });
    expect(first.affinity.pendingWrites()).toBe(2);
    first.close();

    const second = open(dir, T0 + 60_000);
    cleanups.push(() => second.close());
    expect(second.affinity.list().map((p) => p.session)).toEqual(['long']);
    expect(second.leases.book()).toEqual(EMPTY_LEASE_BOOK);
    expect(second.routes.list()).toEqual([]);
  });
});
