import { describe, expect, it } from 'vitest';
import { clearLaneCoolOffs, listLaneCoolOffs } from './lane-cool-off';
import { IDLE_LANE } from './lane-state';
import { EMPTY_LANE_STORE, getLaneEntry, LANE_STORE_LIMIT, putLaneEntry } from './lane-store';
import { activeStore, KEY, NOW, respond, unified } from './lane.testkit';

describe('TEST-6 claude-low-priority-mode', () => {
  it('LOWP-13: the store is FIFO-bounded: a new key past the limit evicts the oldest, an update keeps its place', () => {
    expect(LANE_STORE_LIMIT).toBe(10_000);
    const entry = { ...IDLE_LANE, requestsServed: 1 };
    let store = EMPTY_LANE_STORE;
    for (const key of ['a', 'b', 'c']) store = putLaneEntry(store, key, entry, 3);
    store = putLaneEntry(store, 'a', { ...entry, requestsServed: 2 }, 3);
    store = putLaneEntry(store, 'd', entry, 3);
    expect([...store.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('LOWP-13: putting an unchanged entry, or an idle one for an unknown key, returns the same store', () => {
    const store = activeStore();
    expect(putLaneEntry(store, KEY, getLaneEntry(store, KEY))).toBe(store);
    expect(putLaneEntry(EMPTY_LANE_STORE, 'new', IDLE_LANE)).toBe(EMPTY_LANE_STORE);
    expect(getLaneEntry(EMPTY_LANE_STORE, 'missing')).toBe(IDLE_LANE);
  });

  it('LOWP-8: max-wait cool-offs are listed for the tray and cleared one key or all at once', () => {
    const busy = { status: 429, headers: unified({ 'slow-status': 'slot_busy' }) };
    const first = respond(activeStore(), busy, NOW).state;
    const coolingA = respond(first, busy, NOW + 1_200_000).state;
    const coolingBoth = respond(
      respond(activeStore(NOW, 'conn-b', coolingA), { ...busy, key: 'conn-b' }, NOW).state,
      { ...busy, key: 'conn-b' },
      NOW + 1_200_000,
    ).state;
    const at = NOW + 1_200_001;
    expect(listLaneCoolOffs(coolingBoth, at)).toEqual([
      { key: KEY, untilMs: NOW + 1_800_000 },
      { key: 'conn-b', untilMs: NOW + 1_800_000 },
    ]);
    const oneCleared = clearLaneCoolOffs(coolingBoth, at, KEY);
    expect(listLaneCoolOffs(oneCleared, at).map((row) => row.key)).toEqual(['conn-b']);
    expect(listLaneCoolOffs(clearLaneCoolOffs(coolingBoth, at), at)).toEqual([]);
    expect(clearLaneCoolOffs(EMPTY_LANE_STORE, at)).toBe(EMPTY_LANE_STORE);
  });
});
