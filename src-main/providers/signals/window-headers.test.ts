import { describe, expect, it } from 'vitest';
import { parseDurationMs, readWindows } from './window-headers';

const fills = (headers: Record<string, string>) =>
  (readWindows(headers, 0) ?? []).filter((w) => w.used !== null).map((w) => ({ window: w.name, fraction: w.used }));

describe('provider window headers (issue 22 step 3: read once by the adapter)', () => {
  it('QPIPE-6: reads the Anthropic unified 5h/7d utilisation as fractions', () => {
    expect(
      fills({
        'anthropic-ratelimit-unified-5h-utilization': '0.42',
        'anthropic-ratelimit-unified-7d-utilization': '0.3',
      }),
    ).toEqual([
      { window: '5h', fraction: 0.42 },
      { window: '7d', fraction: 0.3 },
    ]);
  });

  it('QPIPE-6: reads Codex percentages by their announced window and OpenAI limit/remaining pairs', () => {
    expect(
      fills({
        'x-codex-primary-used-percent': '19',
        'x-codex-primary-window-minutes': '300',
        'x-codex-secondary-used-percent': '36',
        'x-codex-secondary-window-minutes': '10080',
        'x-ratelimit-limit-requests': '100',
        'x-ratelimit-remaining-requests': '75',
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '900',
      }),
    ).toEqual([
      { window: '5h', fraction: 0.19 },
      { window: '7d', fraction: 0.36 },
      { window: 'requests', fraction: 0.25 },
      { window: 'tokens', fraction: 0.1 },
    ]);
  });

  it('QPIPE-6: ignores junk and clamps to 0..1; no headers, no windows', () => {
    expect(readWindows({}, 0)).toBeNull();
    expect(
      fills({
        'anthropic-ratelimit-unified-5h-utilization': 'abc',
        'anthropic-ratelimit-unified-7d-utilization': '1.7',
        'x-ratelimit-limit-requests': '0',
        'x-ratelimit-remaining-requests': '0',
      }),
    ).toEqual([{ window: '7d', fraction: 1 }]);
  });

  it('ROUTE-2: reads reset times of Claude, Codex, Anthropic API and OpenAI headers; a reset alone is a window too', () => {
    const now = 1_700_000_000_000;
    const windows = readWindows(
      {
        'anthropic-ratelimit-unified-5h-utilization': '0.5',
        'anthropic-ratelimit-unified-5h-reset': '1700003600',
        'x-codex-secondary-reset-after-seconds': '7200',
        'anthropic-ratelimit-requests-reset': '2023-11-14T22:15:00Z',
        'x-ratelimit-reset-tokens': '6m0s',
      },
      now,
    );
    expect(windows).toEqual([
      { name: '5h', used: 0.5, resetAt: 1_700_003_600_000 },
      { name: '7d', used: null, resetAt: now + 7_200_000 },
      { name: 'requests', used: null, resetAt: Date.parse('2023-11-14T22:15:00Z') },
      { name: 'tokens', used: null, resetAt: now + 360_000 },
    ]);
    expect(parseDurationMs('2m59.56s')).toBe(179_560);
    expect(parseDurationMs('20ms')).toBe(20);
    expect(parseDurationMs('soon')).toBeNull();
    expect(parseDurationMs('1h2m')).toBe(3_720_000);
    expect(parseDurationMs('6m0s')).toBe(360_000);
    expect(parseDurationMs('1.5s')).toBe(1_500);
    // Only a whole duration counts: no unit, a stray dot, trailing junk or nothing at all is no duration.
    for (const junk of ['', '5', 'ms', '.5s', '5.s', '1.2.3s', '5s ', '5sx', '2m59.56'])
      expect(parseDurationMs(junk)).toBeNull();
  });
});
