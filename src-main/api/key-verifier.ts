import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { KeysRepo } from '../db/keys-repo';
import type { EventBus } from '../kernel/event-bus';

const TOUCH_EVERY_MS = 60_000;
const CACHE_LIMIT = 1_000;

/**
 * Checks local keys on the hot path from memory: a verified key is remembered until any key changes
 * (create, revoke, config), so a request costs a map lookup instead of a hash and a SQLite read.
 * Unknown keys are not cached, so random guesses cannot grow the map. Last-used is written at most
 * once a minute per key, and only then is the UI told (as a last-used-only change, which clears
 * nothing: not this cache, not the quota pools, not the catalog).
 */
export function createKeyVerifier(
  keys: KeysRepo,
  events: EventBus,
  now: () => number,
): (plainKey: string) => LocalKeyView | null {
  const cache = new Map<string, LocalKeyView>();
  const lastTouch = new Map<string, number>();
  events.subscribe((event) => {
    if (event.type === 'keys.changed' && event.payload.lastUsedOnly !== true) cache.clear();
  });
  return (plainKey) => {
    let key = cache.get(plainKey) ?? null;
    if (!key) {
      key = keys.verify(plainKey);
      if (!key) return null;
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(plainKey, key);
    }
    const at = now();
    const last = lastTouch.get(key.id) ?? key.lastUsedAt ?? 0;
    if (at - last >= TOUCH_EVERY_MS) {
      lastTouch.set(key.id, at);
      keys.touch(key.id, at);
      events.emit('keys.changed', { keys: keys.list(), lastUsedOnly: true });
    }
    return key;
  };
}
