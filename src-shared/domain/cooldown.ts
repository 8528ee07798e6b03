import { z } from 'zod';

/** Terminal states need a person (reset or new credential); everything else heals by time. */
export type ConnectionTestStatus =
  'active' | 'unavailable' | 'banned' | 'expired' | 'credits_exhausted' | 'needs_reauth';

/** One connection's cooldown fields as the panels and the REST door show them (COOL-2). */
export interface ConnectionCooldownRow {
  id: string;
  name: string;
  provider: string;
  rateLimitedUntil: number | null;
  backoffLevel: number;
  testStatus: ConnectionTestStatus;
  lastError: string | null;
  lastErrorType: string | null;
  errorCode: string | null;
  terminal: boolean;
  /** Milliseconds until selectable again; null when selectable now or terminal. */
  retryAfterMs: number | null;
}

export type BreakerStateKind = 'CLOSED' | 'DEGRADED' | 'OPEN' | 'HALF_OPEN';

/** A provider's breaker (BRK) and, when enabled, its window gate (PROV-9). */
export interface ProviderBreakerRow {
  provider: string;
  kind: string;
  origin: string;
  profile: 'oauth' | 'apikey' | 'local';
  state: BreakerStateKind;
  failureCount: number;
  retryAfterMs: number | null;
  gate: { cooling: boolean; failuresInWindow: number; retryAfterMs: number | null } | null;
}

/** An active model lockout (LOCK-6/7). */
export interface ModelLockoutRow {
  key: string;
  provider: string;
  connectionId: string;
  connection: string;
  model: string;
  reason: string;
  expiresAt: number;
  failureCount: number;
}

/** Everything that is keeping a target from serving right now. */
export interface CooldownSnapshot {
  connections: ConnectionCooldownRow[];
  providers: ProviderBreakerRow[];
  models: ModelLockoutRow[];
  now: number;
}

/** What to clear: one item, one connection, or every transient state at once (never terminal states). */
export const cooldownClearSchema = z.discriminatedUnion('target', [
  z.object({ target: z.literal('all') }).strict(),
  z.object({ target: z.literal('connection'), connection: z.string().trim().min(1) }).strict(),
  z.object({ target: z.literal('provider'), provider: z.string().trim().min(1) }).strict(),
  z.object({ target: z.literal('model'), key: z.string().trim().min(1) }).strict(),
]);
export type CooldownClear = z.infer<typeof cooldownClearSchema>;

/** A target dropped before dispatch (ROUTE-6), shown to clients under `leeway.excluded`. */
export interface TargetExclusion {
  connection: string;
  model: string | null;
  reason:
    | 'unavailable'
    | 'banned'
    | 'expired'
    | 'credits_exhausted'
    | 'needs_reauth'
    | 'circuit_open'
    | 'provider_cooldown'
    | 'model_lockout'
    | 'disabled'
    | 'no_secret'
    | 'wrong_api_format'
    | 'unknown_connection'
    | 'no_model'
    | 'busy'
    | 'not_allowed'
    | 'leased'
    | 'quota';
  retryAfterSeconds: number | null;
  /** Issue 24: what stands behind the reason (`429 rate_limit_exceeded, upstream hint`, `tokens/5h`, `OPEN`); absent: nothing more known. */
  detail?: string;
}
