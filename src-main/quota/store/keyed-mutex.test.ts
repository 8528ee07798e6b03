import { describe, expect, it } from 'vitest';
import { createKeyedMutex } from './keyed-mutex';

describe('keyed mutex', () => {
  it('QWIN-4: runs tasks of one key in order, one at a time, and forgets idle keys', async () => {
    const mutex = createKeyedMutex();
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([mutex.run('k', task('a')), mutex.run('k', task('b'))]);
    expect(results).toEqual(['a', 'b']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(mutex.size()).toBe(0);
  });

  it('QWIN-4: a failing task rejects its caller but does not block the next one', async () => {
    const mutex = createKeyedMutex();
    const failed = mutex.run('k', () => {
      throw new Error('boom');
    });
    const next = mutex.run('k', () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
  });
});
