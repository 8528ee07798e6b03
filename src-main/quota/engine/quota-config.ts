import type { QuotaStoreDriver, QuotaStoreSettings } from '../../../src-shared/domain/quota';

/** The quota settings in force, each from the stored setting, else its environment variable, else the default. */
export interface QuotaConfig {
  driver: QuotaStoreDriver;
  /** Where `driver` came from (the Settings › Quota Store panel shows it). */
  driverFrom: 'setting' | 'env' | 'default';
  redisUrl: string | null;
  saturationThreshold: number;
  softDeprioritizeFactor: number;
  retentionDays: number;
  redisKeyPrefix: string;
  /** Environment values that were invalid and ignored, one sentence each, for a warn log. */
  problems: string[];
}

export const QUOTA_CONFIG_DEFAULTS = {
  driver: 'sqlite' as QuotaStoreDriver,
  saturationThreshold: 0.5,
  softDeprioritizeFactor: 0.7,
  retentionDays: 14,
  redisKeyPrefix: 'leeway:',
} as const;

type Env = Record<string, string | undefined>;

/** A set, non-blank environment value, trimmed; undefined otherwise. */
function envValue(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const value = raw.trim();
  return value === '' ? undefined : value;
}

function envNumber(
  env: Env,
  name: string,
  problems: string[],
  valid: (n: number) => boolean,
  expect: string,
): number | undefined {
  const raw = envValue(env, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (Number.isFinite(n) && valid(n)) return n;
  problems.push(`${name}=${JSON.stringify(raw.slice(0, 40))} is not ${expect}; using the default`);
  return undefined;
}

/**
 * Resolves the quota store and engine settings (QDRV-3, QENV-1/2): a stored `quotaStore.*` value
 * wins, then `QUOTA_STORE_DRIVER`, `QUOTA_STORE_REDIS_URL`, `QUOTA_SATURATION_THRESHOLD`,
 * `QUOTA_SOFT_DEPRIORITIZE_FACTOR`, `QUOTA_CONSUMPTION_RETENTION_DAYS`, `REDIS_KEY_PREFIX`, then the
 * defaults. An invalid environment value falls back to the default and is named in `problems`; an
 * unknown driver means SQLite. A bad Redis URL is reported without quoting it (it may hold a password).
 */
export function resolveQuotaConfig(stored: QuotaStoreSettings | null | undefined, env: Env): QuotaConfig {
  const problems: string[] = [];
  const s = stored ?? {};

  let driver: QuotaStoreDriver = QUOTA_CONFIG_DEFAULTS.driver;
  let driverFrom: QuotaConfig['driverFrom'] = 'default';
  const envDriver = envValue(env, 'QUOTA_STORE_DRIVER')?.toLowerCase();
  if (s.driver !== null && s.driver !== undefined) {
    driver = s.driver;
    driverFrom = 'setting';
  } else if (envDriver === 'sqlite' || envDriver === 'redis') {
    driver = envDriver;
    driverFrom = 'env';
  } else if (envDriver !== undefined) {
    problems.push(`QUOTA_STORE_DRIVER=${JSON.stringify(envDriver.slice(0, 40))} is not sqlite or redis; using sqlite`);
  }

  let redisUrl: string | null = s.redisUrl ?? null;
  if (redisUrl === null) {
    const envUrl = envValue(env, 'QUOTA_STORE_REDIS_URL');
    if (envUrl !== undefined && /^rediss?:\/\//i.test(envUrl)) redisUrl = envUrl;
    else if (envUrl !== undefined) problems.push('QUOTA_STORE_REDIS_URL is not a redis:// or rediss:// URL; ignored');
  }

  const unit = (n: number) => n >= 0 && n <= 1;
  const saturationThreshold =
    s.saturationThreshold ??
    envNumber(env, 'QUOTA_SATURATION_THRESHOLD', problems, unit, 'a number from 0 to 1') ??
    QUOTA_CONFIG_DEFAULTS.saturationThreshold;
  const softDeprioritizeFactor =
    s.softDeprioritizeFactor ??
    envNumber(env, 'QUOTA_SOFT_DEPRIORITIZE_FACTOR', problems, unit, 'a number from 0 to 1') ??
    QUOTA_CONFIG_DEFAULTS.softDeprioritizeFactor;
  const retentionDays =
    s.retentionDays ??
    envNumber(
      env,
      'QUOTA_CONSUMPTION_RETENTION_DAYS',
      problems,
      (n) => Number.isInteger(n) && n >= 1 && n <= 365,
      'a whole number of days from 1 to 365',
    ) ??
    QUOTA_CONFIG_DEFAULTS.retentionDays;
  const redisKeyPrefix = envValue(env, 'REDIS_KEY_PREFIX') ?? QUOTA_CONFIG_DEFAULTS.redisKeyPrefix;

  return {
    driver,
    driverFrom,
    redisUrl,
    saturationThreshold,
    softDeprioritizeFactor,
    retentionDays,
    redisKeyPrefix,
    problems,
  };
}
