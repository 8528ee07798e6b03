import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveQuotaConfig } from '../quota/engine/quota-config';
import { breakerSettingsFromEnv } from '../resilience/breaker/breaker-env';
import { requestQueueFromEnv } from '../resilience/queue/queue-env';
import { streamRecoveryFromEnv } from '../resilience/watchdog/watchdog-env';
import { windowGateSettingsFromEnv } from '../resilience/window-gate/window-gate-env';

/** QENV-6: the seeds' OMNIROUTE_ variables are LEEWAY_ ones here; every other name is kept as written. */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every non-test source file under the given folders. */
function sources(folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out;
}

describe('environment variable names (QENV-6)', () => {
  it('QENV-6: no Leeway source reads an OMNIROUTE_ variable', () => {
    const files = sources(['src-main', 'src-shared', 'src-renderer', 'bin', 'scripts']);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => readFileSync(f, 'utf8').includes('OMNIROUTE_')).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('QENV-6: the seed’s OMNIROUTE_ breaker variables have no effect; their LEEWAY_ names do', () => {
    const seedNames = {
      OMNIROUTE_CIRCUIT_BREAKER_OAUTH_THRESHOLD: '3',
      OMNIROUTE_CIRCUIT_BREAKER_API_KEY_RESET_MS: '90000',
      OMNIROUTE_PROVIDER_BREAKER_OAUTH_FAILURE_THRESHOLD: '4',
      OMNIROUTE_PROVIDER_BREAKER_API_KEY_COOLDOWN_MS: '45000',
    };
    expect(breakerSettingsFromEnv(seedNames)).toEqual({});
    expect(windowGateSettingsFromEnv(seedNames)).toEqual({});
    const renamed = Object.fromEntries(
      Object.entries(seedNames).map(([name, value]) => [name.replace(/^OMNIROUTE_/, 'LEEWAY_'), value]),
    );
    expect(breakerSettingsFromEnv(renamed)).toEqual({
      oauth: { failureThreshold: 3 },
      apikey: { resetTimeoutMs: 90_000 },
    });
    expect(windowGateSettingsFromEnv(renamed)).toEqual({
      profiles: { oauth: { providerFailureThreshold: 4 }, apikey: { providerCooldownMs: 45_000 } },
    });
  });

  it('QENV-6: names the seeds give without the prefix are read exactly as written, not with LEEWAY_ in front', () => {
    const plain = {
      PROVIDER_COOLDOWN_ENABLED: 'true',
      RATE_LIMIT_MAX_WAIT_MS: '45000',
      RATE_LIMIT_EXECUTION_MAX_WAIT_MS: '900000',
      RATE_LIMIT_MAX_QUEUE_DEPTH: '7',
      STREAM_THROUGHPUT_WATCHDOG_ENABLED: 'true',
      QUOTA_STORE_DRIVER: 'redis',
    };
    const prefixed = Object.fromEntries(Object.entries(plain).map(([name, value]) => [`LEEWAY_${name}`, value]));

    expect(windowGateSettingsFromEnv(plain).enabled).toBe(true);
    expect(requestQueueFromEnv(plain)).toEqual({ maxWaitMs: 45_000, executionMaxWaitMs: 900_000, maxQueueDepth: 7 });
    expect(streamRecoveryFromEnv(plain)).toEqual({ throughputWatchdog: { enabled: true } });
    expect(resolveQuotaConfig(null, plain)).toMatchObject({ driver: 'redis', driverFrom: 'env' });

    expect(windowGateSettingsFromEnv(prefixed)).toEqual({});
    expect(requestQueueFromEnv(prefixed)).toEqual({});
    expect(streamRecoveryFromEnv(prefixed)).toEqual({});
    expect(resolveQuotaConfig(null, prefixed)).toMatchObject({ driver: 'sqlite', driverFrom: 'default' });
  });
});
