import { describe, expect, it } from 'vitest';
import {
  detailAttempts,
  formatAttempt,
  formatCount,
  formatFailover,
  formatHeld,
  formatLatency,
  formatTokens,
  formatTranslated,
} from './format-activity';

describe('activity formatting', () => {
  it('PROD-16 shows the failover path ending at the connection that served', () => {
    const entry = {
      connection: 'backup',
      failover: [
        { connection: 'main', status: 429, reason: 'rate_limited' },
        { connection: 'second', status: null, reason: 'timeout' },
      ],
    };
    expect(formatFailover(entry)).toBe('main (429) → second (timeout) → backup');
    expect(formatFailover({ connection: 'main', failover: [] })).toBe('');
  });

  it('PROD-8 formats latency, counts and tokens compactly', () => {
    expect(formatLatency(850)).toBe('850 ms');
    expect(formatLatency(12_345)).toBe('12.3 s');
    expect(formatCount(950)).toBe('950');
    expect(formatCount(1200)).toBe('1.2k');
    expect(formatCount(2_000_000)).toBe('2M');
    expect(formatTokens({ inputTokens: 1200, outputTokens: 340 })).toBe('1.2k → 340');
    expect(formatTokens({ inputTokens: null, outputTokens: null })).toBe('—');
  });

  it('CONC-7: held time reads like a latency; absent, null or zero says nothing', () => {
    expect(formatHeld({ heldMs: 2_080 })).toBe('held 2.1 s');
    expect(formatHeld({ heldMs: 50 })).toBe('held 50 ms');
    expect(formatHeld({ heldMs: null })).toBe('');
    expect(formatHeld({})).toBe('');
    expect(formatHeld({ heldMs: 0 })).toBe('');
  });

  it('ISSUE-12: the translation direction reads with an arrow; absent, null or empty says nothing', () => {
    expect(formatTranslated({ translated: 'anthropic->openai' })).toBe('anthropic→openai');
    expect(formatTranslated({ translated: 'responses->anthropic' })).toBe('responses→anthropic');
    expect(formatTranslated({ translated: null })).toBe('');
    expect(formatTranslated({})).toBe('');
    expect(formatTranslated({ translated: '' })).toBe('');
  });
});

describe('activity detail formatting (issue 13 §3)', () => {
  const hop = { connection: 'main', status: 429, reason: 'rate_limited' };

  it('ISSUE-13: recorded attempts are listed as they are; an old row gets its answering connection last', () => {
    const attempts = [hop, { connection: 'backup', status: 200, reason: 'served', ms: 30 }];
    const base = { connection: 'backup', status: 200, errorCode: null, failover: [hop] };
    expect(detailAttempts({ ...base, attempts })).toBe(attempts);
    expect(detailAttempts(base)).toEqual([hop, { connection: 'backup', status: 200, reason: 'served' }]);
    expect(detailAttempts({ ...base, attempts: [], status: 502, errorCode: 'upstream_error' }).at(-1)).toEqual({
      connection: 'backup',
      status: 502,
      reason: 'upstream_error',
    });
    expect(detailAttempts({ ...base, connection: null, status: 504, errorCode: 'upstream_timeout' })).toEqual([hop]);
  });

  it('ISSUE-13: an attempt reads as status and reason, or the reason alone when none came', () => {
    expect(formatAttempt(hop)).toBe('429 rate_limited');
    expect(formatAttempt({ status: null, reason: 'timeout' })).toBe('timeout');
    expect(formatAttempt({ status: 200, reason: '' })).toBe('200');
  });
});
