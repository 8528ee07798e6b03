import type { ClaimOutcome } from './parse-claim-result';

/** Why an attempt ended the way it did: memo and network outcomes, then the claim's own. */
export type LimitResetOutcome =
  'recent_reset' | 'memo_skip' | 'no_status' | 'not_offered' | 'no_organization' | ClaimOutcome;

/** What the caller acts on (RESET-6/RESET-9): `reset` true means retry the request at full speed. */
export interface LimitResetResult {
  reset: boolean;
  outcome: LimitResetOutcome;
  /** When the reset is next offered, or (memo_skip) when Leeway will next ask; epoch ms. */
  nextAvailableAt: number | null;
  /** A sentence for logs and the UI. */
  reason: string;
  /** Set when the UUID came from the bootstrap endpoint, so the core can persist it. */
  discoveredOrganizationUuid?: string;
}

/** RESET-6: both mean the wall is gone, so the original request may go again without the slow header. */
export function isGranted(outcome: LimitResetOutcome): boolean {
  return outcome === 'reset' || outcome === 'not_limited' || outcome === 'recent_reset';
}

/** A readable line per outcome. */
export function describeOutcome(outcome: LimitResetOutcome): string {
  switch (outcome) {
    case 'recent_reset':
      return 'a reset was granted moments ago; this wall predates it';
    case 'memo_skip':
      return 'not asking again yet; an earlier attempt set the next try';
    case 'no_status':
      return 'could not read the reset status; backing off 15 minutes';
    case 'not_offered':
      return 'no session-limit reset is offered to this account right now';
    case 'no_organization':
      return 'the organisation UUID is unknown; backing off 15 minutes';
    case 'reset':
      return 'session limit reset granted';
    case 'not_limited':
      return 'the account was no longer limited';
    case 'already_used':
      return "this week's reset was already used";
    case 'ineligible':
      return 'the account is not eligible for a reset';
    case 'unavailable':
      return 'no reset is available right now';
    case 'rate_limited':
      return 'the reset endpoint rate-limited the claim; backing off 15 minutes';
    case 'auth_error':
      return 'the reset endpoint refused the token; backing off 15 minutes';
    case 'error':
      return 'the claim failed; backing off 15 minutes';
  }
}
