/**
 * Shared by the quota through-proxy tests: a Leeway with named local keys, a clock pinned to the
 * middle of a window (no test straddles a bucket edge), requests as a key, and a wait for the
 * post-record (QPIPE-5 writes after the answer, so a test reads the counter before its next step).
 */
import type { MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type { QuotaPoolInput, QuotaPoolUsage } from '../../src-shared/domain/quota';
import { startLeeway, type RunningLeeway } from '../testing/start-leeway';
import type { CoreOptions } from '../core/core';

export const KEYS = {
  alice: 'lw-alice-local-key-0123456789',
  bob: 'lw-bob-local-key-0123456789ab',
  carol: 'lw-carol-local-key-0123456789',
} as const;
export type KeyName = keyof typeof KEYS;

const FIVE_HOURS = 5 * 3_600_000;

/** A clock 1.5 h into a 5 h bucket (so also half-way through an hourly one) that then runs in real time. */
export function midWindowClock(): () => number {
  const t0 = Date.now();
  const base = Math.floor(t0 / FIVE_HOURS) * FIVE_HOURS + 1.5 * 3_600_000;
  return () => base + (Date.now() - t0);
}

export async function startQuotaLeeway(
  config: Record<string, unknown>,
  pools: QuotaPoolInput[],
  extra: { dataDir?: string; wrapQuotaStore?: CoreOptions['wrapQuotaStore']; now?: () => number } = {},
): Promise<RunningLeeway> {
  const h = await startLeeway(
    { keys: Object.entries(KEYS).map(([name, key]) => ({ name, key })), ...config },
    {
      now: extra.now ?? midWindowClock(),
      ...(extra.dataDir ? { dataDir: extra.dataDir } : {}),
      ...(extra.wrapQuotaStore ? { wrapQuotaStore: extra.wrapQuotaStore } : {}),
    },
  );
  for (const pool of pools) {
    const made = await h.core.router.call('quota.upsertPool', pool);
    if (!made.ok) throw new Error(`pool ${pool.name}: ${made.error.message}`);
  }
  return h;
}

/** A contract call through the core's router, typed by the method; a refusal throws. */
export async function call<M extends MethodName>(
  h: RunningLeeway,
  method: M,
  input: unknown,
): Promise<MethodOutput<M>> {
  const result = await h.core.router.call(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

export function ask(h: RunningLeeway, key: KeyName, model: string, extra: Record<string, unknown> = {}) {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEYS[key], 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...extra }),
  });
}

export async function usageOf(h: RunningLeeway, pool: string): Promise<QuotaPoolUsage> {
  return call(h, 'quota.poolUsage', { id: pool });
}

/** The key's consumption on the pool's first dimension. */
export async function consumedBy(h: RunningLeeway, pool: string, key: KeyName, dim = 0): Promise<number> {
  const usage = await usageOf(h, pool);
  return usage.dimensions[dim]?.keys.find((k) => k.key === key)?.consumed ?? 0;
}

/** Polls until the key's counter reached `atLeast` (the post-record runs after the answer). */
export async function waitForConsumed(
  h: RunningLeeway,
  pool: string,
  key: KeyName,
  atLeast: number,
  dim = 0,
  timeoutMs = 3_000,
): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await consumedBy(h, pool, key, dim);
    if (value >= atLeast - 1e-9) return value;
    if (Date.now() > until) throw new Error(`${key} on ${pool}: consumed ${value}, expected ≥ ${atLeast}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Sends `n` requests one after another, each counted before the next; returns the statuses. */
export async function burst(h: RunningLeeway, key: KeyName, model: string, n: number, pool: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = await consumedBy(h, pool, key);
    const res = await ask(h, key, model);
    await res.text();
    statuses.push(res.status);
    if (res.status === 200) await waitForConsumed(h, pool, key, before + 1);
  }
  return statuses;
}

export interface QuotaErrorBody {
  type?: string;
  error: { type: string; message: string };
  leeway: {
    code: string;
    details: {
      pool: string;
      key: string;
      dimension: { unit: string; window: string; limit: number };
      consumed: number;
      fairShare: number;
      maxAllowed: number;
      mode: string;
      reason: string;
      policy: string;
      excluded: { connection: string; reason: string }[];
    };
  };
}
