import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryDb, createTempDb } from '../testing/temp-db';
import { createKeysRepo } from './keys-repo';
import { generateLocalKey, hashLocalKey } from './local-key-material';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function memoryRepo() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  return { db, repo: createKeysRepo(db) };
}

const CONFIG_KEY = 'lw-config-provided-key-0123456789';

describe('local key material', () => {
  it('PROD-12: generates lw- plus 32 base62 characters, different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateLocalKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^lw-[A-Za-z0-9]{32}$/);
  });

  it('PROD-12: hashes with SHA-256 hex', () => {
    expect(hashLocalKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('keys repo', () => {
  it('PROD-12: creates a generated key shown once, with a 7-character prefix, that verifies', () => {
    const { repo } = memoryRepo();
    const created = repo.create({ name: 'laptop' }, 100);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const { key, plainKey } = created.value;
    expect(plainKey).toMatch(/^lw-[A-Za-z0-9]{32}$/);
    expect(key).toEqual({
      id: key.id,
      name: 'laptop',
      prefix: plainKey.slice(0, 7),
      createdAt: 100,
      lastUsedAt: null,
      revokedAt: null,
      scopes: [],
      allowedConnections: [],
    });
    expect(repo.verify(plainKey)).toEqual(key);
    expect(repo.verify(plainKey + 'x')).toBeNull();
    expect(repo.list()).toEqual([key]);
  });

  it('PROD-12: stores only the hash: the plain key is not in the database file or its WAL', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    const repo = createKeysRepo(temp.db);
    const created = repo.create({ name: 'ci', key: CONFIG_KEY }, 1);
    expect(created.ok).toBe(true);
    const row = temp.db.prepare<[], { key_hash: string }>('SELECT key_hash FROM local_keys').get();
    expect(row?.key_hash).toBe(hashLocalKey(CONFIG_KEY));

    const bytes = Buffer.concat(
      [temp.file, `${temp.file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
    );
    expect(bytes.includes(hashLocalKey(CONFIG_KEY))).toBe(true);
    expect(bytes.includes(CONFIG_KEY)).toBe(false);
  });

  it('PROD-12: refuses a duplicate name or an already registered key as a conflict, without echoing the key', () => {
    const { repo } = memoryRepo();
    expect(repo.create({ name: 'a', key: CONFIG_KEY }, 1).ok).toBe(true);
    expect(repo.create({ name: 'a' }, 2)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const sameKey = repo.create({ name: 'b', key: CONFIG_KEY }, 3);
    expect(sameKey).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: 'that key is already registered as "a"' },
    });
    expect(JSON.stringify(sameKey)).not.toContain(CONFIG_KEY);
    expect(repo.list().map((k) => k.name)).toEqual(['a']);
  });

  it('PROD-12: revoked keys no longer verify; revoking twice reports false', () => {
    const { repo } = memoryRepo();
    const created = repo.create({ name: 'k', key: CONFIG_KEY }, 1);
    if (!created.ok) throw new Error('setup');
    expect(repo.revoke(created.value.key.id, 50)).toBe(true);
    expect(repo.revoke(created.value.key.id, 60)).toBe(false);
    expect(repo.revoke('missing', 60)).toBe(false);
    expect(repo.verify(CONFIG_KEY)).toBeNull();
    expect(repo.list()[0]?.revokedAt).toBe(50);
  });

  it('PROD-12: upsertByName is idempotent for the same key and replaces and un-revokes on a new one', () => {
    const { repo } = memoryRepo();
    const first = repo.upsertByName('from-config', CONFIG_KEY, 1);
    if (!first.ok) throw new Error('setup');
    expect(repo.upsertByName('from-config', CONFIG_KEY, 2)).toEqual(first);
    repo.revoke(first.value.id, 3);

    const rotated = repo.upsertByName('from-config', 'lw-rotated-key-abcdefghijkl', 4);
    expect(rotated).toMatchObject({ ok: true, value: { id: first.value.id, revokedAt: null, prefix: 'lw-rota' } });
    expect(repo.verify(CONFIG_KEY)).toBeNull();
    expect(repo.verify('lw-rotated-key-abcdefghijkl')?.name).toBe('from-config');
    expect(repo.list()).toHaveLength(1);
  });

  it('PROD-12: upsertByName refuses a key already registered under another name', () => {
    const { repo } = memoryRepo();
    repo.create({ name: 'ui', key: CONFIG_KEY }, 1);
    repo.upsertByName('config', 'lw-another-key-000000000', 2);
    expect(repo.upsertByName('config', CONFIG_KEY, 3)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(repo.verify('lw-another-key-000000000')?.name).toBe('config');
  });

  it('PROD-12: touch records last use but writes at most once a minute per key', () => {
    const { repo } = memoryRepo();
    const created = repo.create({ name: 'k' }, 0);
    if (!created.ok) throw new Error('setup');
    const { id } = created.value.key;
    repo.touch(id, 1_000);
    expect(repo.list()[0]?.lastUsedAt).toBe(1_000);
    repo.touch(id, 30_000);
    expect(repo.list()[0]?.lastUsedAt).toBe(1_000);
    repo.touch(id, 61_000);
    expect(repo.list()[0]?.lastUsedAt).toBe(61_000);
  });

  it('LEASE-3: scopes and allowed connections round-trip through create, list, verify and a reopened database', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    const created = createKeysRepo(temp.db).create(
      {
        name: 'bot',
        key: CONFIG_KEY,
        scopes: ['lease:exclusive', 'lease:exclusive'],
        allowedConnections: ['max-1', 'max-2'],
      },
      1,
    );
    expect(created.ok).toBe(true);
    const again = createKeysRepo(temp.db);
    expect(again.verify(CONFIG_KEY)).toMatchObject({
      scopes: ['lease:exclusive'],
      allowedConnections: ['max-1', 'max-2'],
    });
    expect(again.list()[0]).toMatchObject({ scopes: ['lease:exclusive'], allowedConnections: ['max-1', 'max-2'] });
  });

  it('LEASE-3: upsertByName replaces the access only when given, and setAccess changes it in place', () => {
    const { repo } = memoryRepo();
    repo.upsertByName('bot', CONFIG_KEY, 1, { scopes: ['lease:exclusive'], allowedConnections: ['a'] });
    expect(repo.upsertByName('bot', CONFIG_KEY, 2).ok && repo.list()[0]?.allowedConnections).toEqual(['a']);
    const cleared = repo.upsertByName('bot', CONFIG_KEY, 3, { scopes: [], allowedConnections: [] });
    expect(cleared).toMatchObject({ ok: true, value: { scopes: [], allowedConnections: [] } });
    const id = repo.list()[0]?.id ?? '';
    expect(repo.setAccess(id, { scopes: ['lease:exclusive'], allowedConnections: ['b'] })).toMatchObject({
      ok: true,
      value: { scopes: ['lease:exclusive'], allowedConnections: ['b'] },
    });
    expect(repo.setAccess('ghost', { scopes: [], allowedConnections: [] })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('LEASE-3: a scope this version does not know reads as no scope, never as a grant', () => {
    const { db, repo } = memoryRepo();
    repo.create({ name: 'bot', key: CONFIG_KEY }, 1);
    db.prepare(
      `UPDATE local_keys SET scopes_json = '["admin:all","lease:exclusive"]', allowed_connections_json = 'oops'`,
    ).run();
    expect(repo.list()[0]).toMatchObject({ scopes: ['lease:exclusive'], allowedConnections: [] });
  });
});
