import { describe, expect, it } from 'vitest';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { decisionOf } from './decision-record';
import { decisionHeader } from './decision-header';
import { createTrail } from './trail';

const skip = (connection: string, reason: TargetExclusion['reason'], extra: Partial<TargetExclusion> = {}) => ({
  connection,
  model: 'm',
  reason,
  retryAfterSeconds: null,
  ...extra,
});

describe('decision record from the trail (issue 24 §1)', () => {
  it('ISSUE-24: screen skips come first, a skip made at admission sits between the attempts it came between', () => {
    const trail = createTrail();
    const busy = skip('d', 'busy', { detail: '2 of 2 slots busy' });
    trail.skipped = [
      skip('a', 'unavailable', { retryAfterSeconds: 41, detail: '429 rate_limited, upstream hint' }),
      busy,
    ];
    trail.attempts.push({ connection: 'x', status: 503, reason: 'server_error', ms: 12, upstreamModel: 'm' });
    trail.lateSkips = [[1, busy]];
    trail.attempts.push({ connection: 'b', status: 200, reason: 'served', ms: 30, upstreamModel: 'm' });
    const record = decisionOf(trail, 'b', 200, 1_000_000);
    expect(record.entries.map((e) => `${e.kind}:${e.connection}`)).toEqual([
      'skipped:a',
      'attempted:x',
      'skipped:d',
      'attempted:b',
    ]);
    expect(record.entries[0]).toMatchObject({ until: 1_041_000, detail: '429 rate_limited, upstream hint' });
    expect(decisionHeader(trail, 'b')).toBe('served=b; skipped=a:cooling(429,41s),d:busy; failed=x:503');
  });

  it('ISSUE-24: names that are not header tokens are made safe, never dropped', () => {
    const trail = createTrail();
    trail.skipped = [skip('my conn; évil', 'quota', { retryAfterSeconds: 720, detail: 'tokens/5h' })];
    expect(decisionHeader(trail, null)).toBe('served=none; skipped=my_conn___vil:quota(tokens/5h,ETA 12m)');
  });
});
