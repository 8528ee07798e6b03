import { describe, expect, it } from 'vitest';
import type { UsageSummary } from '../../../src-shared/domain/overview';
import { T0 } from '../shell-fixtures.testkit';
import { usageAlerts, type UsageAlertState } from './usage-alerts';

const HOUR = 3_600_000;
const RESET = T0 + 2 * HOUR;

function claude(used: number | null, resetsAt: number | null = RESET, enabled = true): UsageSummary {
  return {
    at: T0,
    connections: [
      {
        name: 'max-1',
        kind: 'claude-oauth',
        enabled,
        observedAt: T0,
        status: 'allowed',
        windows: [{ window: '5h', unit: 'percent', used, limit: 100, resetsAt, status: null }],
      },
    ],
    pools: [],
  };
}

function pool(usedPercent: number | null, resetsAt = T0 + HOUR): UsageSummary {
  return {
    at: T0,
    connections: [],
    pools: [
      {
        name: 'team',
        connections: ['max-1'],
        saturationThreshold: 0.8,
        dimensions: [{ unit: 'tokens', window: 'daily', used: 1, limit: 10, usedPercent, resetsAt, mode: 'generous' }],
      },
    ],
  };
}

/** Feeds readings in order from an empty (but started) state; returns every title shown. */
function run(readings: UsageSummary[], start: UsageAlertState | null = new Map()): string[] {
  let state = start;
  const titles: string[] = [];
  for (const summary of readings) {
    const decided = usageAlerts(summary, state, T0);
    titles.push(...decided.notifications.map((n) => n.title));
    state = decided.state;
  }
  return titles;
}

describe('usage notifications (issue 13 §8)', () => {
  it('CLAUDE-USAGE: 80, 95 and 100 % of a window are each announced once', () => {
    expect(run([claude(50), claude(81), claude(85), claude(96), claude(97), claude(100), claude(100)])).toEqual([
      'max-1: 5-hour window at 81 %',
      'max-1: 5-hour window at 96 %',
      'max-1: 5-hour window used up',
    ]);
  });

  it('CLAUDE-USAGE: a jump past several thresholds announces only the highest', () => {
    expect(run([claude(10), claude(97)])).toEqual(['max-1: 5-hour window at 97 %']);
  });

  it('CLAUDE-USAGE: a new window (another reset time) starts over; the same window with a jittered reset does not', () => {
    expect(
      run([claude(90), claude(90, RESET + 2_000), claude(20, RESET + 5 * HOUR), claude(85, RESET + 5 * HOUR)]),
    ).toEqual(['max-1: 5-hour window at 90 %', 'max-1: 5-hour window at 85 %']);
  });

  it('CLAUDE-USAGE: without a reset time, falling well below 80 % re-arms the window', () => {
    expect(run([claude(85, null), claude(75, null), claude(86, null), claude(50, null), claude(82, null)])).toEqual([
      'max-1: 5-hour window at 85 %',
      'max-1: 5-hour window at 82 %',
    ]);
  });

  it('CLAUDE-USAGE: the first reading after start is the baseline, so a restart repeats nothing', () => {
    expect(run([claude(96), claude(97)], null)).toEqual([]);
    expect(run([claude(96), claude(100)], null)).toEqual(['max-1: 5-hour window used up']);
  });

  it('CLAUDE-USAGE: an unknown use (past its reset) keeps the state; a disabled connection is silent', () => {
    expect(run([claude(85), claude(null), claude(86)])).toEqual(['max-1: 5-hour window at 85 %']);
    expect(run([claude(99, RESET, false)])).toEqual([]);
  });

  it('QFAIR-3: quota pools are announced per dimension with the time to their reset', () => {
    const first = usageAlerts(pool(50), new Map(), T0);
    const decided = usageAlerts(pool(96), first.state, T0);
    expect(decided.notifications).toEqual([
      { title: 'Pool team: tokens (daily) at 96 %', body: 'Past 95 % of its limit. It resets in 1:00:00.' },
    ]);
    expect(usageAlerts(pool(100), decided.state, T0).notifications).toEqual([
      {
        title: 'Pool team: tokens (daily) used up',
        body: 'Requests go to other connections while it is full. It resets in 1:00:00.',
      },
    ]);
    expect(run([pool(null)])).toEqual([]);
  });
});
