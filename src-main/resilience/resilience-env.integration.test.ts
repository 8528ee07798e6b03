import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway } from '../testing/start-leeway';
import { call } from './resilience-it.testkit';

/*
 * QENV-4 through the real core: the variables are in the process environment before the start
 * (which, like the entries, reads it once into core/env.ts's Env and passes it down), and the
 * settings in force after start say so. The unit tests of each reader cover their parsing and ranges.
 */
const ENV = vi.hoisted(() => {
  const env: Record<string, string> = {
    PROVIDER_COOLDOWN_ENABLED: 'true',
    LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_THRESHOLD: '4',
    LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_WINDOW_MS: '60000',
    LEEWAY_PROVIDER_BREAKER_OAUTH_COOLDOWN_MS: '30000',
    LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_THRESHOLD: '6',
    LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_WINDOW_MS: '120000',
    LEEWAY_PROVIDER_BREAKER_API_KEY_COOLDOWN_MS: '45000',
    RATE_LIMIT_MAX_WAIT_MS: '45000',
    RATE_LIMIT_EXECUTION_MAX_WAIT_MS: '900000',
    RATE_LIMIT_MAX_QUEUE_DEPTH: '7',
    STREAM_THROUGHPUT_WATCHDOG_ENABLED: 'true',
    LEEWAY_EMERGENCY_FALLBACK: '1',
  };
  const before: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    before[name] = process.env[name];
    process.env[name] = value;
  }
  return { names: Object.keys(env), before };
});

afterAll(() => {
  for (const name of ENV.names) {
    const old = ENV.before[name];
    if (old === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = old;
  }
});

const MODEL = 'claude-sonnet-4-5';

describe('resilience variables read by the core (QENV-4)', () => {
  it('QENV-4: PROVIDER_COOLDOWN_ENABLED, the six LEEWAY_PROVIDER_BREAKER_*, RATE_LIMIT_* and STREAM_THROUGHPUT_WATCHDOG_ENABLED are in force after start', async () => {
    const h = await startLeeway({ connections: [] });
    try {
      const settings = await call(h, 'resilience.getSettings', undefined);
      expect(settings.windowGate.enabled).toBe(true);
      expect(settings.windowGate.profiles.oauth).toEqual({
        providerFailureThreshold: 4,
        providerFailureWindowMs: 60_000,
        providerCooldownMs: 30_000,
      });
      expect(settings.windowGate.profiles.apikey).toEqual({
        providerFailureThreshold: 6,
        providerFailureWindowMs: 120_000,
        providerCooldownMs: 45_000,
      });
      expect(settings.requestQueue).toEqual({ maxWaitMs: 45_000, executionMaxWaitMs: 900_000, maxQueueDepth: 7 });
      expect(settings.streamRecovery.throughputWatchdog.enabled).toBe(true);
    } finally {
      await h.stop();
    }
  });

  it('QENV-4, ROUTE-5: LEEWAY_EMERGENCY_FALLBACK=1 alone turns the fallback on (a budget failure goes last); the Settings flag still wins', async () => {
    const a = await startFakeUpstream({ format: 'anthropic', name: 'EA' });
    const b = await startFakeUpstream({ format: 'anthropic', name: 'EB' });
    let clock = 1_800_000_000_000;
    const h = await startLeeway(
      {
        connections: [
          anthropicConnection('em-a', a.url, { models: [MODEL] }),
          anthropicConnection('em-b', b.url, { models: [MODEL] }),
        ],
        combos: [{ name: 'em', targets: ['em-a', 'em-b'] }],
      },
      { now: () => clock },
    );
    const servedBy = async () => {
      const res = await fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'em', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.text();
      return res.headers.get('x-leeway-connection');
    };
    try {
      expect((await call(h, 'settings.get', undefined)).emergencyFallback).toBeNull();
      a.enqueue({
        kind: 'status',
        status: 400,
        body: { error: { message: 'Budget has been exceeded! Max budget: 10.0', type: 'budget_exceeded' } },
      });
      expect(await servedBy()).toBe('em-a');
      clock += 60_000;
      // No Settings override: the environment alone moved em-a behind em-b.
      expect(await servedBy()).toBe('em-b');
      expect(a.requests).toHaveLength(1);
      await call(h, 'settings.update', { emergencyFallback: false });
      expect(await servedBy()).toBe('em-a');
    } finally {
      await h.stop();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('QENV-4, TEST-1: RUN_CHAOS_INT is read by the test suite only, never by Leeway itself', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const readers = sourceFiles(root, ['src-main', 'src-shared', 'src-renderer', 'bin'])
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .filter((file) => readFileSync(file, 'utf8').includes('RUN_CHAOS_INT'))
      .map((file) => relative(root, file));
    expect(readers).toEqual([]);
    expect(readFileSync(join(root, 'src-main/testing/chaos/chaos.test.ts'), 'utf8')).toContain('RUN_CHAOS_INT');
  });
});

/** Every .ts/.tsx/.mjs/.js file under the given folders. */
function sourceFiles(root: string, folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|js)$/.test(name)) out.push(path);
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out;
}
