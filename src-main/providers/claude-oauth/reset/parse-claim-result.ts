import type { FetchJsonResult } from './fetch-json';
import { asRecord, parseInstantMs } from './parse-instant';

/** What the claim endpoint itself answers. */
export type ClaimResult = 'reset' | 'already_used' | 'not_limited' | 'ineligible' | 'unavailable';

/** A claim's result, plus the transport-level outcomes Leeway derives from the HTTP exchange. */
export type ClaimOutcome = ClaimResult | 'rate_limited' | 'auth_error' | 'error';

/** The claim answer with instants as epoch ms. */
export interface ClaimResponse {
  result: ClaimOutcome;
  nextAvailableAt: number | null;
  weeklyResetsAt: number | null;
}

const CLAIM_RESULTS: ReadonlySet<string> = new Set<ClaimResult>([
  'reset',
  'already_used',
  'not_limited',
  'ineligible',
  'unavailable',
]);

function isClaimResult(value: unknown): value is ClaimResult {
  return typeof value === 'string' && CLAIM_RESULTS.has(value);
}

/** Parses a 2xx claim body; an unknown or missing `result` reads as `unavailable`, never as a grant. */
export function parseClaimResult(json: unknown): ClaimResponse {
  const body = asRecord(json);
  return {
    result: isClaimResult(body?.result) ? body.result : 'unavailable',
    nextAvailableAt: parseInstantMs(body?.next_available_at),
    weeklyResetsAt: parseInstantMs(body?.weekly_resets_at),
  };
}

/** Maps the whole claim exchange: 429 → `rate_limited`, 401/403 → `auth_error`, other failures → `error`. */
export function readClaimResponse(answer: FetchJsonResult): ClaimResponse {
  const failed = (result: ClaimOutcome): ClaimResponse => ({ result, nextAvailableAt: null, weeklyResetsAt: null });
  if ('error' in answer) return failed('error');
  if (answer.status === 429) return failed('rate_limited');
  if (answer.status === 401 || answer.status === 403) return failed('auth_error');
  if (answer.status < 200 || answer.status >= 300) return failed('error');
  return parseClaimResult(answer.json);
}
