import { describe, expect, it } from 'vitest';
import { createDisposers } from './disposers';

describe('the disposer stack (issue 22)', () => {
  it('runs every close once, newest first, waiting for each; a throw does not skip the rest and is rethrown', async () => {
    const disposers = createDisposers();
    const ran: string[] = [];
    disposers.push(() => void ran.push('lock'));
    disposers.push(() => {
      ran.push('storage');
      throw new Error('storage would not close');
    });
    disposers.push(async ({ graceMs }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push(`drain ${graceMs}`);
    });
    await expect(disposers.run({ graceMs: 3_000, failedStart: false })).rejects.toThrow('storage would not close');
    expect(ran).toEqual(['drain 3000', 'storage', 'lock']);
    await disposers.run({ graceMs: 0, failedStart: false });
    expect(ran).toHaveLength(3);
  });
});
