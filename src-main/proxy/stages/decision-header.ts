import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { DECISION_HEADER_MAX, shortWait } from '../../../src-shared/domain/decision';
import type { RequestTrail } from './trail';

/** Issue 24 §1: the decision in one response header. */
export const DECISION_HEADER = 'x-leeway-decision';

/** Header-safe: names are the user's own words, so anything but a plain token character becomes `_`. */
function token(text: string): string {
  // A test first: a name that is already a token (the common case) is returned without a copy.
  return SAFE.test(text) ? text : text.replace(/[^A-Za-z0-9._/+-]/g, '_');
}

const SAFE = /^[A-Za-z0-9._/+-]*$/;

const STATUS = /^\d{3}\b/;

/** The header's word for a reason, where it differs from the reason itself. */
const WORDS: Partial<Record<TargetExclusion['reason'], string>> = {
  unavailable: 'cooling',
  circuit_open: 'breaker',
  model_lockout: 'lockout',
  wrong_api_format: 'format',
};

/** What goes in the parentheses before the wait: the cooldown's status, the quota's dimension, the breaker's state. */
function qualifier(e: TargetExclusion): string | null {
  if (e.detail === undefined) return null;
  if (e.reason === 'unavailable') return STATUS.exec(e.detail)?.[0] ?? null;
  return e.reason === 'quota' || e.reason === 'circuit_open' ? token(e.detail) : null;
}

/** `cooling(429,41s)`, `quota(tokens/5h,ETA 12m)`, `breaker(OPEN,30s)`, `leased`, `busy` … */
function skipText(e: TargetExclusion): string {
  const parts: string[] = [];
  const first = qualifier(e);
  if (first !== null) parts.push(first);
  if (e.retryAfterSeconds !== null) {
    const wait = shortWait(e.retryAfterSeconds);
    parts.push(e.reason === 'quota' ? `ETA ${wait}` : wait);
  }
  const word = WORDS[e.reason] ?? e.reason;
  return parts.length === 0 ? word : `${word}(${parts.join(',')})`;
}

/**
 * `served=b; skipped=a:cooling(429,41s),c:quota(tokens/5h,ETA 12m); failed=x:503` as it stands when
 * the headers go out, at most DECISION_HEADER_MAX characters (then `...+N` says how many were cut).
 * Names and reasons only: never a key, a body or a session.
 */
export function decisionHeader(trail: RequestTrail, served: string | null): string {
  const head = `served=${served === null ? 'none' : token(served)}`;
  // Most requests: served at once, nothing left out, nothing lost. No lists to walk then.
  if (trail.skipped.length === 0 && trail.cacheLost === null && !anyFailed(trail)) return head;
  return withDetail(head, trail);
}

function anyFailed(trail: RequestTrail): boolean {
  for (const a of trail.attempts) if (a.reason !== 'served') return true;
  return false;
}

/** The header with what was skipped, what failed and what a move lost, cut at DECISION_HEADER_MAX. */
function withDetail(head: string, trail: RequestTrail): string {
  let text = head;
  let cut = 0;
  const append = (sep: string, part: string): void => {
    if (cut > 0 || text.length + sep.length + part.length > DECISION_HEADER_MAX - 8) cut += 1;
    else text += sep + part;
  };
  let first = true;
  for (const e of trail.skipped) {
    append(first ? '; skipped=' : ',', `${token(e.connection)}:${skipText(e)}`);
    first = false;
  }
  first = true;
  for (const a of trail.attempts) {
    if (a.reason === 'served') continue;
    append(first ? '; failed=' : ',', `${token(a.connection)}:${a.status ?? token(a.reason)}`);
    first = false;
  }
  // Issue 24 §3: the warm prompt cache a move threw away (tokens), said once at the end.
  if (trail.cacheLost) append('; cache-lost=', `${token(trail.cacheLost.connection)}:${trail.cacheLost.tokens}`);
  return cut > 0 ? `${text},...+${cut}` : text;
}
