import { describe, expect, it } from 'vitest';
import { maskRedisUrl, scrubSecret } from './redis-url';

describe('redis URL masking', () => {
  it('QDRV-7: masks the password and keeps user, host, port and database', () => {
    expect(maskRedisUrl('redis://:hunter2@cache.lan:6379/2')).toBe('redis://:***@cache.lan:6379/2');
    expect(maskRedisUrl('rediss://ops:hunter2@cache.lan')).toBe('rediss://ops:***@cache.lan');
    expect(maskRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(maskRedisUrl('redis://ops@cache.lan:6379')).toBe('redis://ops@cache.lan:6379');
  });

  it('QDRV-7: an unparseable URL still loses everything before its @', () => {
    expect(maskRedisUrl('redis://:p@ss w0rd@[::zz')).toBe('redis://***@[::zz');
  });

  it('QDRV-7: scrubs the password, raw or percent-encoded, out of any text', () => {
    const url = 'redis://:p%40ss@cache.lan:6379';
    const text = `connect to ${url} failed; auth p@ss rejected; p%40ss`;
    const out = scrubSecret(text, url);
    expect(out).toBe('connect to redis://:***@cache.lan:6379 failed; auth *** rejected; ***');
    expect(scrubSecret('nothing to hide', null)).toBe('nothing to hide');
  });
});
