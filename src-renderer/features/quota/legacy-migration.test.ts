import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../../src-shared/contract/errors';
import type { QuotaPoolInput, QuotaPoolView } from '../../../src-shared/domain/quota';
import { LEGACY_POOLS_KEY, migrateLegacyPools } from './legacy-migration';
import { fakePool } from './quota-fixtures';

function memoryStorage(initial: Record<string, string>) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    removeItem: (k: string) => void data.delete(k),
  };
}

function deps(stored: string | null, pools: QuotaPoolView[] = []) {
  const storage = memoryStorage(stored === null ? {} : { [LEGACY_POOLS_KEY]: stored });
  const sent: QuotaPoolInput[] = [];
  return {
    storage,
    sent,
    listPools: () => Promise.resolve(ok(pools)),
    upsertPool: (input: QuotaPoolInput) => {
      sent.push(input);
      return Promise.resolve(input.name === 'bad' ? fail('invalid_input', 'no key') : ok(fakePool(input.name)));
    },
  };
}

describe('legacy pool migration', () => {
  it('QUI-11: nothing stored, an empty list or unreadable JSON: nothing is sent and the key is left alone', async () => {
    for (const [stored, reason] of [
      [null, 'no-legacy'],
      ['', 'no-legacy'],
      ['[]', 'no-legacy'],
      ['{not json', 'unreadable'],
    ] as const) {
      const d = deps(stored);
      expect(await migrateLegacyPools(d)).toEqual({ kind: 'skipped', reason });
      expect(d.sent).toEqual([]);
    }
  });

  it('QUI-11: the core already has pools: nothing is sent (the empty-list condition makes it idempotent)', async () => {
    const d = deps(JSON.stringify([{ name: 'team' }]), [fakePool('team')]);
    expect(await migrateLegacyPools(d)).toEqual({ kind: 'skipped', reason: 'core-has-pools' });
    expect(d.sent).toEqual([]);
    expect(d.storage.data.has(LEGACY_POOLS_KEY)).toBe(true);
  });

  it('QUI-11: accepts { pools: [...] }, sends each, names the refused ones and deletes the key', async () => {
    const d = deps(JSON.stringify({ pools: [{ name: 'team' }, { name: 'bad' }] }));
    expect(await migrateLegacyPools(d)).toEqual({
      kind: 'migrated',
      imported: ['team'],
      refused: [{ name: 'bad', message: 'no key' }],
    });
    expect(d.sent.map((p) => p.name)).toEqual(['team', 'bad']);
    expect(d.storage.data.has(LEGACY_POOLS_KEY)).toBe(false);
  });
});
