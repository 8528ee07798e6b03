import { describe, expect, it } from 'vitest';
import { formatCount, formatFailover, formatHeld, formatLatency, formatTokens } from './format-activity';

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
});
