import type { Classification, ClassifyContext, UpstreamOutcome } from './classification';
import { decideResponse } from './decide-response';
import type { ErrorCatalog } from './error-catalog';
import { normalizeHeaders } from './headers';
import type { UpstreamService } from './known-providers';
import { resolveLockScope } from './lock-scope';
import { describeFailure } from './message';
import { operatorRulesFor, toProviderRules } from './operator-rules';
import { honorsRuleLockScope, resolveRuleMatchBody } from './provider-rules';
import { applyStatusRestatement } from './restatement';
import { findRetryHint, RETRY_AFTER_ELIGIBLE_STATUSES } from './retry-hints';
import { ACCOUNT_DEACTIVATED_SIGNALS } from './signals';
import { readUpstreamError } from './upstream-error';

/** BRK-2: the only statuses that charge the provider's circuit breaker. */
export const BREAKER_STATUSES: ReadonlySet<number> = new Set([408, 500, 502, 503, 504]);

/** An upstream error response: restatement, then the decision tree, then the derived fields. */
export function classifyResponse(
  outcome: Extract<UpstreamOutcome, { kind: 'response' }>,
  ctx: ClassifyContext,
  at: { service: UpstreamService; where: string; catalog: ErrorCatalog },
): Classification {
  const { service, where, catalog } = at;
  // Headers stay for the error rules (`x-model-quota-remaining` …); the retry waits come as signals.
  const headers = normalizeHeaders(outcome.headers);
  const error = readUpstreamError(outcome.bodyText);
  // RESTATE-3: restatement runs on the read body, before any classification sees the status.
  const restated = applyStatusRestatement(
    {
      service: service.id,
      status: outcome.status,
      text: error.haystack,
      retryAfterMs: outcome.signals.retryAfterHeaderMs,
    },
    catalog.restatementRules,
  );
  const status = restated.status;
  const operatorRules = operatorRulesFor(ctx.operatorRules, [service.id, ctx.provider.id]);
  const hasOperatorRule = operatorRules.length > 0;
  const retryHint = findRetryHint(outcome.signals, status, error.haystack, ctx.now);
  const verdict = decideResponse({
    status,
    text: error.haystack,
    message: error.message.toLowerCase(),
    structured: error.structured,
    headers,
    kind: ctx.provider.kind,
    service,
    profile: ctx.profile ?? ctx.provider.profile,
    retryHint,
    banSignals: [...ACCOUNT_DEACTIVATED_SIGNALS, ...(ctx.customBanSignals ?? [])],
    rules: [
      ...toProviderRules(service.id, operatorRules),
      ...((Object.hasOwn(catalog.providerRules, service.id) ? catalog.providerRules[service.id] : undefined) ?? []),
    ],
    ruleBody: resolveRuleMatchBody(service.id, error.structured, error.haystack, {
      fullTextProviders: catalog.fullTextProviders,
      hasOperatorRule,
    }),
    honorsRuleScope: honorsRuleLockScope(service.id, {
      honorsProviders: catalog.honorsRuleScopeProviders,
      hasOperatorRule,
    }),
    now: ctx.now,
  });
  const restatedFrom = restated.fromStatus ?? undefined;
  const announce =
    RETRY_AFTER_ELIGIBLE_STATUSES.has(status) && restated.retryAfterMs ? restated.retryAfterMs : undefined;
  return {
    reason: verdict.reason,
    scope: verdict.scope,
    shouldFailover: verdict.scope !== 'request',
    countsForBreaker: verdict.scope === 'provider' && BREAKER_STATUSES.has(status),
    status,
    ...(restatedFrom === undefined ? {} : { restatedFrom }),
    ...(announce === undefined ? {} : { announceRetryAfterMs: announce }),
    retryHint,
    ...(verdict.configuredCooldownMs === undefined ? {} : { configuredCooldownMs: verdict.configuredCooldownMs }),
    terminal: verdict.terminal ?? null,
    requestRejected: verdict.reason === 'request_rejected',
    lockScope: verdict.scope === 'request' ? null : resolveLockScope(status, ctx.explicitLockScope),
    ruleId: verdict.ruleId,
    ...(verdict.ruleScope === undefined ? {} : { ruleScope: verdict.ruleScope }),
    message: describeFailure({ where, status, restatedFrom, reason: verdict.reason, detail: error.message }),
  };
}
