import { describe, expect, it } from 'vitest';
import { readNonNegative } from './header-source';
import { unified } from './lane.testkit';
import { isAtWall, parseUnifiedHeaders } from './unified-headers';
import { parseUsageWindows } from './usage-windows';

describe('TEST-6 claude-low-priority-mode', () => {
  it('LOWP-2: a Headers object and a record parse alike, whatever the name casing', () => {
    const fromHeaders = parseUnifiedHeaders(
      new Headers({
        'Anthropic-RateLimit-Unified-Status': 'rejected',
        'anthropic-ratelimit-unified-reset': '1800003600',
        'ANTHROPIC-RATELIMIT-UNIFIED-SLOW-OFFER': 'treatment',
      }),
    );
    const fromRecord = parseUnifiedHeaders({
      'ANTHROPIC-RATELIMIT-UNIFIED-STATUS': 'rejected',
      'Anthropic-Ratelimit-Unified-Reset': ['1800003600', '1'],
      'anthropic-ratelimit-unified-slow-offer': ' treatment ',
    });
    const expected = { status: 'rejected', resetSeconds: 1_800_003_600, slowOffer: 'treatment' };
    expect(fromHeaders).toEqual(expected);
    expect(fromRecord).toEqual(expected);
    expect(isAtWall(fromHeaders)).toBe(true);
  });

  it('LOWP-2: a bogus offer is absent; an unknown slow status is unrecognized; absent headers stay absent', () => {
    expect(parseUnifiedHeaders(unified({ 'slow-offer': 'maybe' })).slowOffer).toBeUndefined();
    expect(parseUnifiedHeaders(unified({ 'slow-offer': 'control' })).slowOffer).toBe('control');
    expect(parseUnifiedHeaders(unified({ 'slow-status': 'warp_speed' })).slowStatus).toBe('unrecognized');
    expect(parseUnifiedHeaders(unified({ 'slow-status': 'slot_busy' })).slowStatus).toBe('slot_busy');
    expect(parseUnifiedHeaders({})).toEqual({});
    expect(parseUnifiedHeaders({ 'retry-after': '3' })).toEqual({});
  });

  it('LOWP-7: numeric headers are trimmed, non-empty, finite and non-negative, else absent', () => {
    expect(readNonNegative(' 20 ')).toBe(20);
    expect(readNonNegative('0.5')).toBe(0.5);
    expect(['', '  ', '-1', 'abc', 'Infinity', 'NaN', undefined].map(readNonNegative)).toEqual(
      Array(7).fill(undefined),
    );
    const parsed = parseUnifiedHeaders(unified({ 'slow-retry-after': '-5', 'slow-max-wait': 'soon', '5h-reset': '' }));
    expect(parsed).toEqual({});
  });

  it('LOWP-10: overage-in-use reads true/false in any case and nothing else', () => {
    expect(parseUnifiedHeaders(unified({ 'overage-in-use': 'TRUE' })).overageInUse).toBe(true);
    expect(parseUnifiedHeaders(unified({ 'overage-in-use': 'false' })).overageInUse).toBe(false);
    expect(parseUnifiedHeaders(unified({ 'overage-in-use': 'yes' })).overageInUse).toBeUndefined();
  });

  it('LOWP-2: usage windows read 5h/7d utilisation, resets and statuses, the blamed window and the overage', () => {
    const windows = parseUsageWindows(
      new Headers(
        unified({
          status: 'allowed',
          reset: '1800003600',
          'representative-claim': 'five_hour',
          '5h-utilization': '0.42',
          '5h-reset': '1800003600',
          '5h-status': 'allowed',
          '7d-utilization': '0.18',
          '7d-reset': '1800500000',
          'overage-status': 'rejected',
          'overage-in-use': 'false',
          'slow-budget-utilization': '0.3',
        }),
      ),
    );
    expect(windows).toEqual({
      status: 'allowed',
      resetsAtSeconds: 1_800_003_600,
      representativeClaim: 'five_hour',
      fiveHour: { utilization: 0.42, resetsAtSeconds: 1_800_003_600, status: 'allowed' },
      sevenDay: { utilization: 0.18, resetsAtSeconds: 1_800_500_000 },
      overage: { status: 'rejected', inUse: false },
      windows: {
        '5h': { utilization: 0.42, resetsAtSeconds: 1_800_003_600, status: 'allowed' },
        '7d': { utilization: 0.18, resetsAtSeconds: 1_800_500_000 },
      },
    });
  });

  it('LOWP-2: unknown windows are kept by name, malformed numbers dropped, and no unified header means null', () => {
    const windows = parseUsageWindows(
      unified({ '7d_oi-utilization': '0.05', '7d-sonnet-reset': '1800500000', '5h-utilization': 'lots' }),
    );
    expect(windows?.windows).toEqual({
      '7d_oi': { utilization: 0.05 },
      '7d-sonnet': { resetsAtSeconds: 1_800_500_000 },
    });
    expect(windows?.fiveHour).toBeUndefined();
    expect(parseUsageWindows({ 'content-type': 'application/json' })).toBeNull();
  });
});
