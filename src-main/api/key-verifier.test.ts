import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src-shared/contract/events';
import { createKeysRepo } from '../db/keys-repo';
import { createMemoryDb } from '../testing/temp-db';
import { createEventBus } from '../kernel/event-bus';
import { createKeyVerifier } from './key-verifier';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function setup() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  const keys = createKeysRepo(db);
  const created = keys.create({ name: 'laptop', key: 'lw-laptop-key-0123456789abcdef' }, 0);
  if (!created.ok) throw new Error(created.error.message);
  // A real repository; only its verify() is counted, to see when the cache is bypassed.
  let reads = 0;
  const verify = keys.verify.bind(keys);
  keys.verify = (plain) => {
    reads += 1;
    return verify(plain);
  };
  const events = createEventBus();
  const seen: CoreEvent[] = [];
  events.subscribe((e) => seen.push(e));
  let clock = 1_000_000;
  const check = createKeyVerifier(keys, events, () => clock);
  return {
    keys,
    events,
    seen,
    check,
    reads: () => reads,
    advance: (ms: number) => (clock += ms),
  };
}

describe('local key verification on the hot path', () => {
  it('PROD-12: the minute last-used write tells the UI without clearing the verified-key cache', () => {
    const t = setup();
    expect(t.check('lw-laptop-key-0123456789abcdef')?.name).toBe('laptop');
    expect(t.reads()).toBe(1);
    const touches = t.seen.filter((e) => e.type === 'keys.changed');
    expect(touches).toHaveLength(1);
    expect(touches[0]?.payload).toMatchObject({ lastUsedOnly: true });
    expect(t.keys.list()[0]?.lastUsedAt).toBe(1_000_000);
    t.advance(61_000);
    expect(t.check('lw-laptop-key-0123456789abcdef')?.name).toBe('laptop');
    expect(t.seen.filter((e) => e.type === 'keys.changed')).toHaveLength(2);
    // Still answered from memory: the touch did not clear the cache.
    expect(t.reads()).toBe(1);
  });

  it('PROD-12: a real key change (a revoke) clears the cache, so the revoked key is refused at once', () => {
    const t = setup();
    expect(t.check('lw-laptop-key-0123456789abcdef')).not.toBeNull();
    const id = t.keys.list()[0]?.id ?? '';
    expect(t.keys.revoke(id, 2_000_000)).toBe(true);
    t.events.emit('keys.changed', { keys: t.keys.list() });
    expect(t.check('lw-laptop-key-0123456789abcdef')).toBeNull();
    expect(t.reads()).toBe(2);
  });
});
