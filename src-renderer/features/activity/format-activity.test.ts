import { describe, expect, it } from 'vitest';
import { formatCount, formatFailover, formatLatency, formatTokens } from './format-activity';

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
});
