import { describe, expect, it } from 'vitest';
import { CONNECTION_KINDS } from '../../../src-shared/domain/connection';
import { NO_SIGNALS } from '../../kernel/upstream-signals';
import { adapterFor } from '../registry';
import { readHeaderSignals } from './read-signals';

const NOW = 1_700_000_000_000;

describe('UpstreamSignals (issue 22 step 3)', () => {
  it('ISSUE-22: a response that says nothing shares NO_SIGNALS; a 2xx carries windows but no retry wait', () => {
    expect(readHeaderSignals(200, {}, NOW)).toBe(NO_SIGNALS);
    const served = readHeaderSignals(
      200,
      { 'retry-after': '30', 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '5' },
      NOW,
    );
    expect(served.retryAfter).toBeNull();
    expect(served.windows).toEqual([{ name: 'requests', used: 0.5, resetAt: null }]);
  });

  it('ISSUE-22: an error names its wait and its source; a lone reset is kept apart for the status to decide', () => {
    expect(readHeaderSignals(429, { 'retry-after': '30' }, NOW)).toMatchObject({
      retryAfter: { ms: 30_000, source: 'retry-after' },
      retryAfterHeaderMs: 30_000,
      loneResetMs: null,
    });
    expect(readHeaderSignals(400, { 'x-ratelimit-reset': '12' }, NOW)).toMatchObject({
      retryAfter: null,
      loneResetMs: 12_000,
    });
  });

  it('ISSUE-22: every adapter reads the same header dialects through signals()', () => {
    const headers = { 'anthropic-ratelimit-unified-5h-utilization': '0.25', 'retry-after-ms': '1500' };
    for (const kind of CONNECTION_KINDS) {
      const s = adapterFor(kind).signals(429, headers, null, NOW);
      expect(s.retryAfter).toEqual({ ms: 1_500, source: 'retry-after-ms' });
      expect(s.windows).toEqual([{ name: '5h', used: 0.25, resetAt: null }]);
    }
  });
});
