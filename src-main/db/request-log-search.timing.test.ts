import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryDb } from '../testing/temp-db';
import { logEntry } from './request-log-fixtures.testkit';
import { createRequestLog } from './request-log-repo';

// Timed, so it runs alone (TIMING=1): a loaded machine's other test files cannot push it over.
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe('request log search speed', () => {
  it('ISSUE-13: searching 1,000 rows stays fast (a miss that scans them all, well under 250 ms)', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    const log = createRequestLog(db);
    for (let i = 0; i < 1_000; i++)
      log.append(logEntry({ ts: i * 1000, model: i % 2 ? 'claude-sonnet-4-5' : 'glm-4.6', connection: `c${i % 7}` }));
    log.flush();
    const started = performance.now();
    expect(log.list({ search: 'no-such-thing' })).toEqual([]);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
