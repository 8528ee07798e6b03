import type { ConnectionHealth, TerminalStatus } from './connection-health';

/** One classified upstream failure on a connection, as the classifier hands it over. */
export interface ConnectionFailure {
  /** Classifier reason, stored as `lastErrorType` (e.g. `rate_limit_exceeded`). */
  reason: string;
  /** Upstream reset hint, already relative to `now`; null when the upstream gave none. */
  retryHintMs: number | null;
  /** Cooldown a configured rule demands; wins over hints and backoff when > 0. */
  configuredCooldownMs?: number;
  /** Ban detection, empty wallet or dead credentials; `expired` is retried first (COOL-9). */
  terminal: TerminalStatus | null;
  /** The upstream refused this one request (Anthropic OAuth 403 "Request not allowed"), COOL-8. */
  requestRejected: boolean;
  /** Upstream error text, kept (shortened) as `lastError`. */
  message: string;
  status: number | null;
}

/** Where a cooldown's length came from. */
export type CooldownSource = 'backoff' | 'upstream_hint' | 'configured' | 'request_rejected' | 'expired_retry';

/**
 * What a failure did to the connection. `state` is returned unchanged (same object) exactly for
 * `absorbed` and `already_terminal`, so the caller can skip the write.
 */
export type CooldownDecision =
  /** A transient cooldown was written (or would have been, see `disableCooling` → `not_cooled`). */
  | {
      kind: 'cooldown';
      source: CooldownSource;
      cooldownMs: number;
      until: number;
      backoffLevel: number;
      reason: string;
    }
  /** The connection was already cooling from the same burst; nothing changed (COOL-6). */
  | { kind: 'absorbed'; retryAfterMs: number; reason: string }
  /** The connection became terminal now (COOL-7). */
  | { kind: 'terminal'; status: TerminalStatus; reason: string }
  /** The connection was terminal before; a transient write never replaces that (COOL-10). */
  | { kind: 'already_terminal'; status: TerminalStatus; reason: string }
  /** `disableCooling`: only diagnostics (and streak counters) were recorded (COOL-15). */
  | { kind: 'not_cooled'; reason: string };

/** The new state to persist (see `CooldownDecision` for when it is unchanged) and why. */
export interface FailureOutcome {
  state: ConnectionHealth;
  decision: CooldownDecision;
}
