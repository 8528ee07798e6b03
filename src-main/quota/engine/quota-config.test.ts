import { describe, expect, it } from 'vitest';
import { resolveQuotaConfig } from './quota-config';

describe('quota config precedence', () => {
  it('QDRV-3/QENV-1: with nothing set, the defaults', () => {
    expect(resolveQuotaConfig({}, {})).toEqual({
      driver: 'sqlite',
      driverFrom: 'default',
      redisUrl: null,
      saturationThreshold: 0.5,
      softDeprioritizeFactor: 0.7,
      retentionDays: 14,
      redisKeyPrefix: 'leeway:',
      problems: [],
    });
  });

  it('QDRV-3/QDRV-4: QUOTA_STORE_DRIVER and QUOTA_STORE_REDIS_URL apply when the setting is empty', () => {
    const c = resolveQuotaConfig(
      { driver: null },
      { QUOTA_STORE_DRIVER: 'redis', QUOTA_STORE_REDIS_URL: 'redis://localhost:6379' },
    );
    expect(c).toMatchObject({ driver: 'redis', driverFrom: 'env', redisUrl: 'redis://localhost:6379' });
  });

  it('QDRV-3/QENV-2: the stored setting beats the environment', () => {
    const c = resolveQuotaConfig(
      {
        driver: 'sqlite',
        redisUrl: 'redis://db:1',
        saturationThreshold: 0.8,
        softDeprioritizeFactor: 0.2,
        retentionDays: 3,
      },
      {
        QUOTA_STORE_DRIVER: 'redis',
        QUOTA_STORE_REDIS_URL: 'redis://env:2',
        QUOTA_SATURATION_THRESHOLD: '0.1',
        QUOTA_SOFT_DEPRIORITIZE_FACTOR: '0.9',
        QUOTA_CONSUMPTION_RETENTION_DAYS: '30',
      },
    );
    expect(c).toMatchObject({
      driver: 'sqlite',
      driverFrom: 'setting',
      redisUrl: 'redis://db:1',
      saturationThreshold: 0.8,
      softDeprioritizeFactor: 0.2,
      retentionDays: 3,
    });
  });

  it('QENV-1: numeric environment values apply over the defaults; REDIS_KEY_PREFIX sets the prefix', () => {
    const c = resolveQuotaConfig(
      {},
      {
        QUOTA_SATURATION_THRESHOLD: '0.25',
        QUOTA_SOFT_DEPRIORITIZE_FACTOR: ' 0.5 ',
        QUOTA_CONSUMPTION_RETENTION_DAYS: '7',
        REDIS_KEY_PREFIX: 'team-a:',
      },
    );
    expect(c).toMatchObject({
      saturationThreshold: 0.25,
      softDeprioritizeFactor: 0.5,
      retentionDays: 7,
      redisKeyPrefix: 'team-a:',
      problems: [],
    });
  });

  it('QENV-1: invalid environment values fall back to the defaults and are reported', () => {
    const c = resolveQuotaConfig(
      {},
      {
        QUOTA_SATURATION_THRESHOLD: '1.5',
        QUOTA_SOFT_DEPRIORITIZE_FACTOR: 'lots',
        QUOTA_CONSUMPTION_RETENTION_DAYS: '2.5',
      },
    );
    expect(c).toMatchObject({ saturationThreshold: 0.5, softDeprioritizeFactor: 0.7, retentionDays: 14 });
    expect(c.problems).toHaveLength(3);
    expect(c.problems[0]).toContain('QUOTA_SATURATION_THRESHOLD');
  });

  it('QDRV-3: an unknown driver means SQLite, reported', () => {
    const c = resolveQuotaConfig({}, { QUOTA_STORE_DRIVER: 'memcached' });
    expect(c).toMatchObject({ driver: 'sqlite', driverFrom: 'default' });
    expect(c.problems.join(' ')).toContain('QUOTA_STORE_DRIVER');
  });

  it('QDRV-4: a non-redis URL in the environment is ignored without echoing it (it may hold a password)', () => {
    const c = resolveQuotaConfig({}, { QUOTA_STORE_REDIS_URL: 'http://user:s3cret@host' });
    expect(c.redisUrl).toBeNull();
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]).not.toContain('s3cret');
  });

  it('QENV-1: blank environment values count as unset', () => {
    const c = resolveQuotaConfig({}, { QUOTA_STORE_DRIVER: '  ', QUOTA_SATURATION_THRESHOLD: '' });
    expect(c).toMatchObject({ driver: 'sqlite', driverFrom: 'default', saturationThreshold: 0.5, problems: [] });
  });
});
