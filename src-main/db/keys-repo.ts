import { randomUUID } from 'node:crypto';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { keyScopeSchema, type KeyScope } from '../../src-shared/domain/lease';
import type { CreatedLocalKey, LocalKeyView } from '../../src-shared/domain/local-key';
import { parseJsonArray } from '../kernel/json-columns';
import { generateLocalKey, hashLocalKey, KEY_PREFIX_LENGTH } from './local-key-material';
import type { Database } from './open';
import { guardedWrite } from './storage-health';

/** What a key may do (LEASE-3) and which connections it may use (names; empty = all). */
export interface KeyAccess {
  scopes: KeyScope[];
  allowedConnections: string[];
}

const NO_ACCESS_LIMITS: KeyAccess = { scopes: [], allowedConnections: [] };

/** Local API keys, stored only as SHA-256 hex (PROD-12): the plain key is shown once and forgotten. */
export interface KeysRepo {
  /** Creates a key (generated unless given); `conflict` if the name or the key is already taken. */
  create(input: { name: string; key?: string } & Partial<KeyAccess>, now: number): Result<CreatedLocalKey>;
  /**
   * Makes the named key equal `plainKey` (config files): idempotent, un-revokes on a new key.
   * `access`, when given, replaces the key's scopes and allowed connections. When no key has the
   * name but one holds `plainKey`, that key was renamed in Leeway (issue 13 §8): it keeps its new
   * name and gets `access`, instead of the config failing or the rename being undone.
   */
  upsertByName(name: string, plainKey: string, now: number, access?: KeyAccess): Result<LocalKeyView>;
  /** Gives the key `id` a new name in place (issue 13 §8); `conflict` when another key has it. */
  rename(id: string, name: string): Result<LocalKeyView>;
  /** A renamed connection: every allowlist naming `from` names `to`; returns how many keys changed. */
  renameAllowedConnection(from: string, to: string): number;
  /** Replaces a key's scopes and allowed connections; `not_found` for an unknown id. */
  setAccess(id: string, access: KeyAccess): Result<LocalKeyView>;
  list(): LocalKeyView[];
  /** The active key matching `plainKey`, or null (unknown or revoked). */
  verify(plainKey: string): LocalKeyView | null;
  revoke(id: string, now: number): boolean;
  /** Records use; writes at most once a minute per key so the proxy hot path rarely hits SQLite. */
  touch(id: string, now: number): void;
}

/** last_used_at is for people ("used 3 minutes ago"); minute precision is plenty. */
const TOUCH_GRANULARITY_MS = 60_000;

interface KeyRow {
  id: string;
  name: string;
  key_hash: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  scopes_json: string;
  allowed_connections_json: string;
}

/** Known scopes only: a scope this version does not know grants nothing. */
function parseScopes(text: string): KeyScope[] {
  const scopes: KeyScope[] = [];
  for (const entry of parseJsonArray(text)) {
    const scope = keyScopeSchema.safeParse(entry);
    if (scope.success && !scopes.includes(scope.data)) scopes.push(scope.data);
  }
  return scopes;
}

function parseNames(text: string): string[] {
  return parseJsonArray(text).filter((entry): entry is string => typeof entry === 'string');
}

/** Deduplicated, in the given order, so the columns hold exactly what a view shows. */
const accessColumns = (access: KeyAccess): { scopes_json: string; allowed_connections_json: string } => ({
  scopes_json: JSON.stringify([...new Set(access.scopes)]),
  allowed_connections_json: JSON.stringify([...new Set(access.allowedConnections)]),
});

function toView(row: KeyRow): LocalKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    scopes: parseScopes(row.scopes_json),
    allowedConnections: parseNames(row.allowed_connections_json),
  };
}

/** Creates the repository, preparing every statement once. */
export function createKeysRepo(db: Database, newId: () => string = randomUUID): KeysRepo {
  const selectAll = db.prepare<[], KeyRow>('SELECT * FROM local_keys ORDER BY created_at, name');
  const selectByName = db.prepare<[string], KeyRow>('SELECT * FROM local_keys WHERE name = ?');
  const selectByHash = db.prepare<[string], KeyRow>('SELECT * FROM local_keys WHERE key_hash = ?');
  const selectById = db.prepare<[string], KeyRow>('SELECT * FROM local_keys WHERE id = ?');
  const insert = db.prepare<[KeyRow]>(
    `INSERT INTO local_keys (id, name, key_hash, prefix, created_at, last_used_at, revoked_at, scopes_json, allowed_connections_json)
     VALUES (@id, @name, @key_hash, @prefix, @created_at, @last_used_at, @revoked_at, @scopes_json, @allowed_connections_json)`,
  );
  const updateAccess = db.prepare<[{ id: string; scopes_json: string; allowed_connections_json: string }]>(
    'UPDATE local_keys SET scopes_json = @scopes_json, allowed_connections_json = @allowed_connections_json WHERE id = @id',
  );
  const replaceHash = db.prepare<[string, string, string]>(
    'UPDATE local_keys SET key_hash = ?, prefix = ?, revoked_at = NULL WHERE id = ?',
  );
  const setRevoked = db.prepare<[number, string]>(
    'UPDATE local_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const setLastUsed = db.prepare<[number, string]>('UPDATE local_keys SET last_used_at = ? WHERE id = ?');
  const updateName = db.prepare<[string, string]>('UPDATE local_keys SET name = ? WHERE id = ?');
  const updateAllowed = db.prepare<[string, string]>('UPDATE local_keys SET allowed_connections_json = ? WHERE id = ?');
  const lastTouched = new Map<string, number>();

  // Messages name the key by name only: the plain key never enters an error.
  const hashTakenBy = (hash: string, name: string): Result<never> | null => {
    const holder = selectByHash.get(hash);
    return holder && holder.name !== name
      ? fail('conflict', `that key is already registered as "${holder.name}"`)
      : null;
  };

  const setAccess = (id: string, access: KeyAccess): Result<LocalKeyView> => {
    updateAccess.run({ id, ...accessColumns(access) });
    const row = selectById.get(id);
    return row ? ok(toView(row)) : fail('not_found', 'no such local key');
  };

  const create = db.transaction(
    (input: { name: string; key?: string } & Partial<KeyAccess>, now: number): Result<CreatedLocalKey> => {
      if (selectByName.get(input.name)) return fail('conflict', `a local key named "${input.name}" already exists`);
      const plainKey = input.key ?? generateLocalKey();
      const hash = hashLocalKey(plainKey);
      const taken = hashTakenBy(hash, input.name);
      if (taken) return taken;
      const row: KeyRow = {
        id: newId(),
        name: input.name,
        key_hash: hash,
        prefix: plainKey.slice(0, KEY_PREFIX_LENGTH),
        created_at: now,
        last_used_at: null,
        revoked_at: null,
        ...accessColumns({
          scopes: input.scopes ?? NO_ACCESS_LIMITS.scopes,
          allowedConnections: input.allowedConnections ?? NO_ACCESS_LIMITS.allowedConnections,
        }),
      };
      insert.run(row);
      return ok({ key: toView(row), plainKey });
    },
  );

  const upsertByName = db.transaction(
    (name: string, plainKey: string, now: number, access?: KeyAccess): Result<LocalKeyView> => {
      const hash = hashLocalKey(plainKey);
      const existing = selectByName.get(name);
      const renamed = existing ? undefined : selectByHash.get(hash);
      if (renamed) return access ? setAccess(renamed.id, access) : ok(toView(renamed));
      if (!existing) {
        const created = create({ name, key: plainKey, ...access }, now);
        return created.ok ? ok(created.value.key) : created;
      }
      if (existing.key_hash !== hash) {
        const taken = hashTakenBy(hash, name);
        if (taken) return taken;
        replaceHash.run(hash, plainKey.slice(0, KEY_PREFIX_LENGTH), existing.id);
      }
      if (access) return setAccess(existing.id, access);
      const updated = selectById.get(existing.id);
      return updated ? ok(toView(updated)) : fail('not_found', `local key "${name}" vanished`);
    },
  );

  const rename = db.transaction((id: string, name: string): Result<LocalKeyView> => {
    const row = selectById.get(id);
    if (!row) return fail('not_found', 'no such local key');
    const holder = selectByName.get(name);
    if (holder && holder.id !== id) return fail('conflict', `a local key named "${name}" already exists`);
    updateName.run(name, id);
    return ok(toView({ ...row, name }));
  });

  const renameAllowedConnection = db.transaction((from: string, to: string): number => {
    let changed = 0;
    for (const row of selectAll.all()) {
      const names = parseNames(row.allowed_connections_json);
      if (!names.includes(from)) continue;
      const next = [...new Set(names.map((n) => (n === from ? to : n)))];
      updateAllowed.run(JSON.stringify(next), row.id);
      changed++;
    }
    return changed;
  });

  return {
    create: (input, now) => create(input, now),
    rename: (id, name) => rename(id, name),
    renameAllowedConnection: (from, to) => renameAllowedConnection(from, to),
    upsertByName: (name, plainKey, now, access) => upsertByName(name, plainKey, now, access),
    setAccess,
    list: () => selectAll.all().map(toView),
    verify: (plainKey) => {
      const row = selectByHash.get(hashLocalKey(plainKey));
      return row && row.revoked_at === null ? toView(row) : null;
    },
    revoke: (id, now) => {
      lastTouched.delete(id);
      return setRevoked.run(now, id).changes > 0;
    },
    touch: (id, now) => {
      const previous = lastTouched.get(id);
      if (previous !== undefined && now - previous < TOUCH_GRANULARITY_MS) return;
      lastTouched.set(id, now);
      // On a request's path: a disk that refuses must not fail the request (issue 21 §16).
      guardedWrite(db, `key-last-used:${id}`, () => void setLastUsed.run(now, id));
    },
  };
}
