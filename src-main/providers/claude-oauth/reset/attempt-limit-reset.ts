import { fetchJsonSafely, isOk, type FetchJson } from './fetch-json';
import { resolveOrganizationUuid } from './organization-uuid';
import { readClaimResponse } from './parse-claim-result';
import { parseResetStatus } from './parse-reset-status';
import type { LimitResetStore } from './limit-reset-store';
import { checkResetMemo, findingForStatus, memoResult, settleAttempt, type AttemptFinding } from './reset-memo';
import type { LimitResetResult } from './reset-outcome';
import { resetClaimRequest, resetStatusRequest, type ResetEndpoint } from './reset-requests';

/** One wall 429 on one connection, with everything the attempt may touch passed in. */
export interface LimitResetAttempt extends ResetEndpoint {
  /** Connection id, else the access token, else "anon" (reference §7.1). */
  key: string;
  providerSpecificData?: Readonly<Record<string, unknown>>;
  now: number;
  fetchJson: FetchJson;
  store: LimitResetStore;
}

type Found = { finding: AttemptFinding; discoveredOrganizationUuid?: string };

/** Steps 4–7's network part: status, then the organisation, then the claim; never throws. */
async function findOutcome(input: LimitResetAttempt): Promise<Found> {
  const statusAnswer = await fetchJsonSafely(input.fetchJson, resetStatusRequest(input));
  const stop = findingForStatus(isOk(statusAnswer) ? parseResetStatus(statusAnswer.json) : null);
  if (stop !== null) return { finding: stop };
  const lookup = await resolveOrganizationUuid(input);
  if (lookup.kind === 'missing') return { finding: { kind: 'no_organization' } };
  const claimAnswer = await fetchJsonSafely(input.fetchJson, resetClaimRequest(input, lookup.organizationUuid));
  const finding: AttemptFinding = { kind: 'claimed', claim: readClaimResponse(claimAnswer) };
  return lookup.kind === 'bootstrap' ? { finding, discoveredOrganizationUuid: lookup.organizationUuid } : { finding };
}

async function runAttempt(input: LimitResetAttempt): Promise<LimitResetResult> {
  const found = await findOutcome(input).catch((): Found => ({ finding: { kind: 'no_status' } }));
  const { memo, result } = settleAttempt(found.finding, input.now);
  // Written before the in-flight entry is released, so no caller can slip a second claim in between.
  input.store.writeMemo(input.key, memo);
  return found.discoveredOrganizationUuid === undefined
    ? result
    : { ...result, discoveredOrganizationUuid: found.discoveredOrganizationUuid };
}

/**
 * Tries Claude's weekly session-limit reset for one wall 429 (RESET-3..8). Answers from the memo
 * without network when it can, and shares one in-flight attempt between concurrent walls on a key.
 */
export function attemptClaudeLimitReset(input: LimitResetAttempt): Promise<LimitResetResult> {
  const check = checkResetMemo(input.store.readMemo(input.key), input.now);
  if (check.kind !== 'attempt') return Promise.resolve(memoResult(check));
  return input.store.pending(input.key) ?? input.store.track(input.key, runAttempt(input));
}
