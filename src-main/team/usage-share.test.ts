import { describe, expect, it } from 'vitest';
import type { ClaudeUsage } from '../../src-shared/domain/claude';
import { createUsageShare, readUsageFact } from './usage-share';

const usage = (utilization: number, observedAt: number): ClaudeUsage => ({
  fiveHour: { utilization, resetsAtSeconds: 1_900_000_000 },
  windows: { '5h': { utilization, resetsAtSeconds: 1_900_000_000 } },
  observedAt,
});

describe('team Claude usage facts', () => {
  it('ISSUE-24 §4: a usage fact reads back as it was observed; junk is ignored', () => {
    expect(readUsageFact(JSON.stringify(usage(0.97, 5)))).toEqual(usage(0.97, 5));
    expect(readUsageFact('{"windows":{}}')).toBeNull();
    expect(readUsageFact('{"windows":{"5h":{"utilization":-1}},"observedAt":1}')).toBeNull();
    expect(readUsageFact('nope')).toBeNull();
  });

  it('ISSUE-24 §4: before the Claude runtime is attached the latest observation per name is kept, not the last to arrive', () => {
    const absorbed: Array<[string, ClaudeUsage]> = [];
    const share = createUsageShare({
      idOf: (name) => (name === 'acct' ? 'id-b' : null),
      nameOf: () => 'acct',
      share: () => undefined,
      quietly: (run) => run(),
    });
    share.absorb('acct', JSON.stringify(usage(0.9, 20)));
    share.absorb('acct', JSON.stringify(usage(0.4, 10)));
    share.absorb('other', JSON.stringify(usage(0.1, 30)));
    share.attach({ onUsage: () => undefined, absorbUsage: (id, u) => absorbed.push([id, u]) > 0 });
    expect(absorbed).toEqual([['id-b', usage(0.9, 20)]]);
  });
});
