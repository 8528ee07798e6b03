import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { ComboView } from '../../src-shared/domain/combo';
import type {
  ConnectionCooldownRow,
  CooldownSnapshot,
  ModelLockoutRow,
  ProviderBreakerRow,
} from '../../src-shared/domain/cooldown';
import type { ContractRouter } from './contract-call';

/** Test data for the shell's pure logic: snapshots built from a few fields, times as plain numbers. */
export const T0 = 1_700_000_000_000;

export function connectionRow(name: string, extra: Partial<ConnectionCooldownRow> = {}): ConnectionCooldownRow {
  return {
    id: `id-${name}`,
    name,
    provider: 'anthropic@https://api.anthropic.com',
    rateLimitedUntil: null,
    backoffLevel: 0,
    testStatus: 'active',
    lastError: null,
    lastErrorType: null,
    errorCode: null,
    terminal: false,
    retryAfterMs: null,
    ...extra,
  };
}

/** A connection cooling for `ms` from T0. */
export function coolingRow(
  name: string,
  ms: number,
  extra: Partial<ConnectionCooldownRow> = {},
): ConnectionCooldownRow {
  return connectionRow(name, {
    rateLimitedUntil: T0 + ms,
    retryAfterMs: ms,
    testStatus: 'unavailable',
    lastErrorType: 'rate_limit_exceeded',
    backoffLevel: 1,
    ...extra,
  });
}

export function terminalRow(
  name: string,
  status: 'banned' | 'expired' | 'credits_exhausted',
  lastError: string | null = null,
): ConnectionCooldownRow {
  return connectionRow(name, { testStatus: status, terminal: true, lastError });
}

export function providerRow(provider: string, extra: Partial<ProviderBreakerRow> = {}): ProviderBreakerRow {
  const [kind = provider, origin = ''] = provider.split('@');
  return {
    provider,
    kind,
    origin,
    profile: 'apikey',
    state: 'CLOSED',
    failureCount: 0,
    retryAfterMs: null,
    gate: null,
    ...extra,
  };
}

export function lockRow(connection: string, model: string, ms: number): ModelLockoutRow {
  return {
    key: `anthropic:id-${connection}:${model}`,
    provider: 'anthropic',
    connectionId: `id-${connection}`,
    connection,
    model,
    reason: 'model_not_found',
    expiresAt: T0 + ms,
    failureCount: 1,
  };
}

export function snapshotOf(parts: Partial<Omit<CooldownSnapshot, 'now'>> = {}, now = T0): CooldownSnapshot {
  return { connections: [], providers: [], models: [], ...parts, now };
}

export function combo(name: string, connections: (string | { connection: string; model: string })[]): ComboView {
  return {
    id: `combo-${name}`,
    name,
    targets: connections.map((c) => (typeof c === 'string' ? { connection: c, model: null } : c)),
    strategy: 'priority',
    createdAt: T0,
    updatedAt: T0,
  };
}

export interface RecordedCall {
  method: string;
  input: unknown;
}

/** A router that records every call and answers from `answers` (by method), else `ok(null)`. */
export function recordingRouter(answers: Record<string, unknown> = {}): ContractRouter & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return {
    calls,
    call(method, input): Promise<Result<unknown>> {
      calls.push({ method, input });
      const answer = answers[method];
      if (answer instanceof Error) return Promise.resolve(fail('internal_error', answer.message));
      return Promise.resolve(ok(answer ?? null));
    },
  };
}

/** A manual clock: timers fire only when the test advances time. */
export function manualClock(start = T0) {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run: () => void, ms: number): unknown {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(handle: unknown) {
      timers.delete(handle as number);
    },
    pending: () => timers.size,
    /** Moves time forward, firing due timers in order (including ones they schedule). */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
  };
}
