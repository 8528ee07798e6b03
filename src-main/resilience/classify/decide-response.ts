import { matchProviderRule } from './provider-rules';
import { SIGNAL_STEPS } from './signal-steps';
import { statusDefault } from './status-defaults';
import type { ResponseFacts, Verdict } from './verdict';

/**
 * RESTATE-8/10/11: the provider rules (operator first, then built-in). Their scope is the verdict's
 * scope only where the provider honours rule scope; elsewhere the status decides who is charged.
 * Rules are consulted for 400 too, before the pattern sets (see the folder README on RESTATE-N2).
 */
function providerRuleVerdict(f: ResponseFacts): Verdict | null {
  const match = matchProviderRule(f.rules, { status: f.status, headers: f.headers, body: f.ruleBody });
  if (!match) return null;
  const cooldown = match.cooldownMs === null ? {} : { configuredCooldownMs: match.cooldownMs };
  if (f.honorsRuleScope) {
    return {
      reason: match.reason,
      scope: match.scope,
      terminal: null,
      ruleId: match.ruleId,
      ruleScope: match.scope,
      ...cooldown,
    };
  }
  // A rule matched, so this is an upstream condition, never the request's own fault.
  const byStatus = statusDefault(f).scope;
  return {
    reason: match.reason,
    scope: byStatus === 'request' ? 'connection' : byStatus,
    terminal: null,
    ruleId: match.ruleId,
    ...cooldown,
  };
}

/** The decision tree for an upstream error response: signals, then provider rules, then the status. */
export function decideResponse(f: ResponseFacts): Verdict {
  for (const step of SIGNAL_STEPS) {
    const verdict = step(f);
    if (verdict) return verdict;
  }
  return providerRuleVerdict(f) ?? statusDefault(f);
}
