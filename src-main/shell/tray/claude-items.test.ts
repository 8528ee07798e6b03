import { describe, expect, it } from 'vitest';
import { T0 } from '../shell-fixtures.testkit';
import { claudeConnections, claudeUsageLine, formatClock } from './claude-items';
import { claudeStatus } from './claude-fixtures.testkit';

describe('claude tray items', () => {
  it('PROD-4: joins claude.status to connection names, sorted, leaving out connections switched off', () => {
    const status = [
      claudeStatus('id-b', null),
      claudeStatus('id-off', null),
      claudeStatus('id-a', null),
      claudeStatus('id-new', null),
    ];
    const names = new Map([
      ['id-a', 'alpha'],
      ['id-b', 'beta'],
      ['id-off', 'off'],
    ]);
    expect(claudeConnections(status, names, new Set(['id-off'])).map((c) => c.name)).toEqual([
      'alpha',
      'beta',
      'id-new',
    ]);
  });

  it('PROD-4: a usage line shows only the windows the headers reported', () => {
    const status = claudeStatus('id-a', { fiveHour: 0.05, resetsInMs: 59_000, week: 0.999 });
    const weekOnly = { ...status, usage: status.usage && { ...status.usage, fiveHour: undefined } };
    expect(claudeUsageLine({ name: 'a', status }, T0)).toBe('a — 5h 5% (resets 00:59) · week 100%');
    expect(claudeUsageLine({ name: 'a', status: weekOnly }, T0)).toBe('a — week 100%');
  });

  it('PROD-4: clock times read HH:MM in local time', () => {
    expect(formatClock(new Date(2024, 0, 2, 9, 7, 59).getTime())).toBe('09:07');
    expect(formatClock(new Date(2024, 0, 2, 23, 45).getTime())).toBe('23:45');
  });
});
