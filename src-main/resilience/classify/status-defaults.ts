import { classifyBadRequest } from './bad-request';
import { classify429, isCapacityText, isQuotaText, isRateLimitText } from './quota-patterns';
import { creditsVerdict } from './signal-steps';
import {
  EXPIRED_TOKEN_SIGNALS,
  includesAny,
  NO_CREDENTIALS_SIGNALS,
  OAUTH_INVALID_TOKEN_SIGNALS,
  REQUEST_REJECTED_SIGNALS,
} from './signals';
import type { ResponseFacts, Verdict } from './verdict';

/** Anthropic's "overloaded" status: provider-wide, but not one of the breaker's statuses (BRK-2). */
const OVERLOADED = 529;

/** Text that names its own cause whatever the status (reference ERROR_RULES, text part). */
function textVerdict(f: ResponseFacts): Verdict | null {
  if (includesAny(f.text, NO_CREDENTIALS_SIGNALS)) {
    return { reason: 'auth_error', scope: 'connection', configuredCooldownMs: 120_000, ruleId: 'no-credentials' };
  }
  if (includesAny(f.text, REQUEST_REJECTED_SIGNALS)) {
    return { reason: 'request_rejected', scope: 'connection', ruleId: 'request-not-allowed' };
  }
  if (isRateLimitText(f.text)) return { reason: 'rate_limit_exceeded', scope: 'connection', ruleId: 'rate-limit-text' };
  if (isQuotaText(f.text)) return { reason: 'quota_exhausted', scope: 'connection', ruleId: 'quota-text' };
  // An overloaded model says nothing about the key: lock the model, not the connection (COOL-14).
  if (isCapacityText(f.text)) return { reason: 'model_capacity', scope: 'model', ruleId: 'capacity-text' };
  return null;
}

/** 401: the credential was refused — terminal `expired` after COOL-9's retries, unless a refresh heals it. */
function unauthorized(f: ResponseFacts): Verdict {
  if (includesAny(f.text, OAUTH_INVALID_TOKEN_SIGNALS)) {
    return { reason: 'auth_error', scope: 'connection', terminal: null, ruleId: 'oauth-invalid-token' };
  }
  if (includesAny(f.text, EXPIRED_TOKEN_SIGNALS)) {
    return { reason: 'token_expired', scope: 'connection', terminal: 'expired', ruleId: 'token-expired' };
  }
  return { reason: 'auth_error', scope: 'connection', terminal: 'expired', ruleId: 'status-401' };
}

function tooManyRequests(f: ResponseFacts): Verdict {
  if (isCapacityText(f.text)) return { reason: 'model_capacity', scope: 'model', ruleId: 'capacity-429' };
  const reason = classify429(f.text);
  return { reason, scope: 'connection', ruleId: reason === 'quota_exhausted' ? 'quota-429' : 'status-429' };
}

function serverError(f: ResponseFacts): Verdict {
  // A gateway that sends its rate limits as 5xx is blaming this key, not the provider (COOL-14).
  if (isRateLimitText(f.text)) return { reason: 'rate_limit_exceeded', scope: 'connection', ruleId: 'rate-limit-5xx' };
  if (f.status === OVERLOADED || isCapacityText(f.text)) {
    return { reason: 'model_capacity', scope: 'provider', ruleId: 'overloaded' };
  }
  return { reason: 'server_error', scope: 'provider', ruleId: `status-${f.status}` };
}

/** The last step: what the (restated) status means when no signal or rule spoke first. */
export function statusDefault(f: ResponseFacts): Verdict {
  const s = f.status;
  if (s === 400 || s === 422) {
    const { reason, scope, ruleId } = classifyBadRequest(f.message, f.structured);
    return { reason, scope, ruleId };
  }
  if (s === 401) return unauthorized(f);
  if (s === 402) return creditsVerdict(f, 'status-402');
  if (s === 403)
    return textVerdict(f) ?? { reason: 'auth_error', scope: 'connection', terminal: null, ruleId: 'status-403' };
  if (s === 404 || s === 410) return { reason: 'not_found', scope: 'model', ruleId: `status-${s}` };
  if (s === 408) return { reason: 'timeout', scope: 'provider', ruleId: 'status-408' };
  if (s === 413) return { reason: 'context_overflow', scope: 'request', ruleId: 'status-413' };
  if (s === 429) return tooManyRequests(f);
  if (s === 432) return { reason: 'quota_exhausted', scope: 'connection', ruleId: 'status-432' };
  if (s >= 500) return serverError(f);
  if (s === 406) return { reason: 'server_error', scope: 'connection', ruleId: 'status-406' };
  return textVerdict(f) ?? { reason: 'unknown', scope: 'connection', ruleId: `status-${s}` };
}
