import { describe, expect, it } from 'vitest';
import { ACTIVITY_LIMIT, mergeEntries } from './activity-entries';
import { activityEntry } from './activity-fixtures';

const ids = (entries: { id: number }[]) => entries.map((e) => e.id);

describe('activity entries', () => {
  it('PROD-8 keeps the latest 100 requests, newest first, without duplicates', () => {
    const page = Array.from({ length: ACTIVITY_LIMIT }, (_, i) => activityEntry(i + 1));
    const live = Array.from({ length: 5 }, (_, i) => activityEntry(ACTIVITY_LIMIT + 1 + i));
    // The snapshot and the live events overlap: entry 100 arrives twice, the later copy wins.
    const merged = mergeEntries(page, [...live, activityEntry(ACTIVITY_LIMIT, { status: 429 })]);
    expect(merged).toHaveLength(ACTIVITY_LIMIT);
    expect(merged[0]?.id).toBe(ACTIVITY_LIMIT + 5);
    expect(merged.at(-1)?.id).toBe(6);
    expect(new Set(ids(merged)).size).toBe(ACTIVITY_LIMIT);
    expect(merged.find((e) => e.id === ACTIVITY_LIMIT)?.status).toBe(429);
  });

  it('PROD-8 a larger limit (after "Load older") keeps older pages; order does not depend on arrival', () => {
    const older = [activityEntry(3), activityEntry(1)];
    expect(ids(mergeEntries([activityEntry(2), activityEntry(4)], older, 3))).toEqual([4, 3, 2]);
    expect(ids(mergeEntries(older, [activityEntry(4), activityEntry(2)], 10))).toEqual([4, 3, 2, 1]);
  });
});
