import { afterEach, describe, expect, it } from 'vitest';
import { learnServed } from '../routing/affinity/pin-learn';
import { pinKeyOf, type Pin, type PinScope } from '../routing/affinity/pin';
import { createMemoryDb, createTempDb } from '../testing/temp-db';
import { createAffinityRepo } from '../routing/affinity/pin-store';
import { createPinRows } from './affinity-rows';
import { openDatabase, type Database } from './open';

const T0 = 1_700_000_000_000;
const TTL = 3_600_000;
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Rows the foreign keys need: two keys and three connections. */
function seed(db: Database): void {
  for (const id of ['k1', 'k2']) {
    db.prepare("INSERT INTO local_keys (id, name, key_hash, prefix, created_at) VALUES (?, ?, ?, 'lw-xxxx', 0)").run(
      id,
      id,
      id.repeat(32),
    );
  }
  for (const id of ['c1', 'c2', 'c3']) {
    db.prepare("INSERT INTO connections (id, name, kind, created_at, updated_at) VALUES (?, ?, 'anthropic', 0, 0)").run(
      id,
      id,
    );
  }
}

function pin(scope: Partial<PinScope>, connectionId: string, now = T0, ttl = TTL): Pin {
  const change = learnServed(
    undefined,
    { keyId: 'k1', session: 's1', target: 'main', ...scope },
    connectionId,
    ttl,
    now,
  );
  if (change.kind !== 'created') throw new Error(change.kind);
  return change.pin;
}

const rowCount = (db: Database): number =>
  db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM session_account_affinity').get()?.n ?? -1;

function memory() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  seed(db);
  return db;
}

describe('affinity repo', () => {
  it('AFF-4, QDB-7: pins are written behind: nothing reaches SQLite until flush, and a restart finds them', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    seed(temp.db);
    const repo = createAffinityRepo(createPinRows(temp.db), T0);
    const a = pin({ session: 's1' }, 'c1');
    const b = pin({ session: 's2', keyId: 'k2', target: 'claude-haiku-4-5' }, 'c2');
    repo.put(a);
    repo.put(b);
    expect(repo.get(pinKeyOf(a))).toEqual(a);
    expect(rowCount(temp.db)).toBe(0);
    repo.flush();
    expect(rowCount(temp.db)).toBe(2);
    temp.db.close();

    const reopened = openDatabase(temp.file);
    closers.push(() => reopened.close());
    const restarted = createAffinityRepo(createPinRows(reopened), T0 + 1_000);
    expect(restarted.get(pinKeyOf(a))).toEqual(a);
    expect(restarted.get(pinKeyOf(b))).toEqual(b);
    expect(restarted.list()).toHaveLength(2);
  });

  it('AFF-4: a pin stored under the key the plan built, dropped and stored again, is the row a flush leaves', () => {
    const db = memory();
    const repo = createAffinityRepo(createPinRows(db), T0);
    const first = pin({}, 'c1');
    const key = pinKeyOf(first);
    repo.put(first, key);
    expect(repo.clear({ key })).toBe(1);
    const again = pin({}, 'c2', T0 + 5);
    repo.put(again, key);
    expect(repo.get(key)).toEqual(again);
    expect(repo.pendingWrites()).toBe(1);
    repo.flush();
    const rows = db.prepare<[], { connection_id: string }>('SELECT connection_id FROM session_account_affinity').all();
    expect(rows).toEqual([{ connection_id: 'c2' }]);
  });

  it('AFF-8: a thousand extensions of one pin are one pending write, and the newest expiry is what is stored', () => {
    const db = memory();
    const repo = createAffinityRepo(createPinRows(db), T0);
    let current = pin({}, 'c1');
    for (let i = 1; i <= 1_000; i++) {
      const change = learnServed(current, current, 'c1', TTL, T0 + i);
      if (change.kind === 'disabled') throw new Error('disabled');
      current = change.pin;
      repo.put(current);
    }
    expect(repo.pendingWrites()).toBe(1);
    repo.flush();
    expect(repo.pendingWrites()).toBe(0);
    expect(db.prepare('SELECT expires_at FROM session_account_affinity').pluck().get()).toBe(T0 + 1_000 + TTL);
  });

  it('AFF-4: loading deletes expired rows; prune drops expired pins from memory and the next flush from the table', () => {
    const db = memory();
    const first = createAffinityRepo(createPinRows(db), T0);
    first.put(pin({ session: 'short' }, 'c1', T0, 1_000));
    first.put(pin({ session: 'long' }, 'c2', T0, 10_000));
    first.flush();

    const second = createAffinityRepo(createPinRows(db), T0 + 1_000);
    expect(second.list().map((p) => p.session)).toEqual(['long']);
    expect(rowCount(db)).toBe(1);
    expect(second.prune(T0 + 9_999)).toBe(0);
    expect(second.prune(T0 + 10_000)).toBe(1);
    expect(second.list()).toEqual([]);
    expect(rowCount(db)).toBe(1);
    second.flush();
    expect(rowCount(db)).toBe(0);
  });

  it('AFF-6: a moved pin overwrites its row; clearing by connection, key, one pin or all forgets them', () => {
    const db = memory();
    const repo = createAffinityRepo(createPinRows(db), T0);
    const original = pin({ session: 's1' }, 'c1');
    repo.put(original);
    repo.flush();
    const moved = learnServed(original, original, 'c2', TTL, T0 + 5);
    if (moved.kind !== 'moved') throw new Error(moved.kind);
    repo.put(moved.pin);
    repo.put(pin({ session: 's2' }, 'c2'));
    repo.put(pin({ session: 's3', keyId: 'k2' }, 'c3'));
    repo.put(pin({ session: 's4' }, 'c3'));
    repo.flush();
    expect(db.prepare("SELECT connection_id FROM session_account_affinity WHERE session = 's1'").pluck().get()).toBe(
      'c2',
    );

    expect(repo.clear({ connectionId: 'c2' })).toBe(2);
    expect(repo.clear({ keyId: 'k2' })).toBe(1);
    expect(repo.clear({ key: pinKeyOf({ keyId: 'k1', session: 'nope', target: 'main' }) })).toBe(0);
    expect(repo.clear('all')).toBe(1);
    repo.flush();
    expect(rowCount(db)).toBe(0);
  });

  it('AFF-4: a pin whose connection was deleted is skipped and does not sink the rest of the batch', () => {
    const db = memory();
    const repo = createAffinityRepo(createPinRows(db), T0);
    repo.put(pin({ session: 'gone' }, 'c3'));
    repo.put(pin({ session: 'kept' }, 'c1'));
    db.prepare("DELETE FROM connections WHERE id = 'c3'").run();
    expect(() => repo.flush()).not.toThrow();
    expect(db.prepare('SELECT session FROM session_account_affinity').pluck().all()).toEqual(['kept']);
  });

  it('AFF-4: a failed flush keeps its changes pending (behind newer ones) and the next flush writes them', () => {
    const db = memory();
    const repo = createAffinityRepo(createPinRows(db), T0);
    repo.put(pin({ session: 's1' }, 'c1'));
    db.exec('ALTER TABLE session_account_affinity RENAME TO parked');
    expect(() => repo.flush()).toThrow();
    expect(repo.pendingWrites()).toBe(1);
    db.exec('ALTER TABLE parked RENAME TO session_account_affinity');
    repo.flush();
    expect(rowCount(db)).toBe(1);
  });

  it('ISSUE-23: a spread subagent’s pin keeps its agent across an extension and a restart; a session’s pin has none', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    seed(temp.db);
    const repo = createAffinityRepo(createPinRows(temp.db), T0);
    const own = pin({ session: 's1/agent-1', agent: 'agent-1' }, 'c1');
    const extended = learnServed(own, own, 'c1', TTL, T0 + 10);
    if (extended.kind !== 'extended') throw new Error(extended.kind);
    expect(extended.pin.agent).toBe('agent-1');
    repo.put(extended.pin);
    repo.put(pin({ session: 's1' }, 'c2'));
    repo.flush();
    temp.db.close();
    const reopened = openDatabase(temp.file);
    closers.push(() => reopened.close());
    const restarted = createAffinityRepo(createPinRows(reopened), T0 + 1_000);
    expect(restarted.get(pinKeyOf(own))).toEqual(extended.pin);
    expect(restarted.get(pinKeyOf({ keyId: 'k1', session: 's1', target: 'main' }))).not.toHaveProperty('agent');
  });
});
