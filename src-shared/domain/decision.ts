import type { FailoverHop } from './request-log';

/**
 * Issue 24 §1: why a request went where it went. Every candidate connection×model in the order the
 * request met it: skipped before dispatch (with the reason and what stands behind it) or attempted
 * (with how that ended). Bounded: at most DECISION_MAX_ENTRIES entries; `omitted` counts the rest.
 */
export interface DecisionRecord {
  /** The connection that answered; null when none did. */
  served: string | null;
  /** Final status the client saw (499: it left first). */
  status: number;
  /** Time spent waiting out cooldowns (CONC-7) and in request queues (QUEUE-1), in ms; 0 when none. */
  heldMs: number;
  queuedMs: number;
  entries: DecisionEntry[];
  /** Entries left out past the cap. */
  omitted: number;
  /** Issue 24 §3: the warm prompt cache the session threw away by moving here; absent or null: none. */
  cacheLost?: { connection: string; tokens: number; usd: number } | null;
}

export type DecisionEntry = DecisionSkip | DecisionAttempt;

/** What `activity.decision` and `GET /api/requests/:id/decision` answer: the activity row's id and its record. */
export interface RequestDecision {
  id: number;
  decision: DecisionRecord;
}

/** A candidate left out before dispatch. `reason` is a TargetExclusion reason (`unavailable`: cooling). */
export interface DecisionSkip {
  kind: 'skipped';
  connection: string;
  model: string | null;
  reason: string;
  /** Seconds until it may serve again, when known. */
  retryAfterSeconds: number | null;
  /** Epoch ms it may serve again, when known. */
  until: number | null;
  /** What stands behind the reason: `429 rate_limit_exceeded, upstream hint`, `tokens/5h`, `OPEN`… */
  detail: string | null;
}

/** A candidate that was sent the request. `reason`: `served`, or the failure's class. */
export interface DecisionAttempt {
  kind: 'attempted';
  connection: string;
  model: string | null;
  status: number | null;
  reason: string;
  ms: number | null;
}

/** Entries a stored record keeps (a 50-connection combo keeps its first 32 in order). */
export const DECISION_MAX_ENTRIES = 32;
/** Bytes of one `x-leeway-decision` header at most (beyond that it ends with `…+N`). */
export const DECISION_HEADER_MAX = 400;

/** `41s`, `12m`, `3h`: the wait as a person reads it. */
export function shortWait(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, Math.round(seconds))}s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes}m` : `${Math.ceil(minutes / 60)}h`;
}

const SKIP_WORDS: Readonly<Record<string, string>> = {
  unavailable: 'cooling',
  circuit_open: 'breaker open',
  provider_cooldown: 'provider cooling',
  model_lockout: 'model locked out',
  leased: 'leased by another session',
  busy: 'all slots busy',
  quota: 'quota held',
  wrong_api_format: 'wrong API format',
  not_allowed: 'not allowed for this key',
};

/** One line per entry, for the CLI and the dashboard: `a  skipped: cooling (429 …) for 41s`. */
export function decisionLines(record: DecisionRecord): string[] {
  const lines = record.entries.map((e, i) => `${String(i + 1).padStart(2)}. ${entryText(e)}`);
  if (record.omitted > 0) lines.push(`    … ${record.omitted} more candidates not kept`);
  if (record.queuedMs > 0) lines.push(`    queued ${record.queuedMs} ms for a slot`);
  if (record.heldMs > 0) lines.push(`    held ${record.heldMs} ms waiting out cooldowns`);
  const lost = record.cacheLost;
  if (lost)
    lines.push(
      `    moved off ${lost.connection}: threw away its warm prompt cache of ${lost.tokens} tokens (about $${lost.usd.toFixed(2)} to rebuild)`,
    );
  lines.push(record.served === null ? `    not served (status ${record.status})` : `    served by ${record.served}`);
  return lines;
}

/** One entry in words. */
export function entryText(e: DecisionEntry): string {
  const who = e.model === null ? e.connection : `${e.connection} / ${e.model}`;
  if (e.kind === 'attempted') {
    const took = e.ms === null ? '' : ` in ${e.ms} ms`;
    const status = e.status === null ? '' : ` ${e.status}`;
    return e.reason === 'served' ? `${who}: served${status}${took}` : `${who}: failed${status} ${e.reason}${took}`;
  }
  const words = SKIP_WORDS[e.reason] ?? e.reason.replace(/_/g, ' ');
  const detail = e.detail === null ? '' : ` (${e.detail})`;
  const wait = e.retryAfterSeconds === null ? '' : `, back in ${shortWait(e.retryAfterSeconds)}`;
  return `${who}: skipped, ${words}${detail}${wait}`;
}

/** What an activity row keeps that a decision record can be rebuilt from. */
export interface DecisionRow {
  connection: string | null;
  status: number;
  failover: readonly FailoverHop[];
  attempts: readonly FailoverHop[];
}

/** The connection that served: the last attempt's when it says so; a local answer with no attempt names its connection. */
export function servedOf(row: DecisionRow): string | null {
  const last = row.attempts.at(-1);
  if (last === undefined) return row.connection !== null && row.failover.length === 0 ? row.connection : null;
  return last.reason === 'served' ? last.connection : null;
}

/** One attempt as a decision entry. */
export function attemptEntryOf(a: FailoverHop): DecisionAttempt {
  return {
    kind: 'attempted',
    connection: a.connection,
    model: a.upstreamModel ?? null,
    status: a.status,
    reason: a.reason,
    ms: a.ms ?? null,
  };
}

/**
 * The record a row implies: its attempts in order, nothing skipped, held or queued. Most requests
 * (served by their first candidate, or refused before routing) have exactly this record, so it is
 * not stored beside the row but rebuilt from it (issue 22: a JSON write per request saved).
 */
export function impliedDecision(row: DecisionRow): DecisionRecord {
  const entries = row.attempts.slice(0, DECISION_MAX_ENTRIES).map(attemptEntryOf);
  return {
    served: servedOf(row),
    status: row.status,
    heldMs: 0,
    queuedMs: 0,
    entries,
    omitted: row.attempts.length - entries.length,
  };
}
