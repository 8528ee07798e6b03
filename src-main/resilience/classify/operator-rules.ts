import type { OperatorRule, OperatorRules } from '../../../src-shared/domain/provider-error-rules';
import type { ProviderErrorRule } from './provider-rules';

// The schema lives in src-shared, where the contract (resilience.updateSettings) checks it too.
export {
  operatorRuleSchema,
  providerErrorRulesSchema,
  type OperatorRule,
  type OperatorRules,
} from '../../../src-shared/domain/provider-error-rules';
export { MAX_OPERATOR_RULES } from '../../../src-shared/domain/resilience-ranges';

/** The operator rules declared under any of the given keys (service id, provider id), in order. */
export function operatorRulesFor(rules: OperatorRules, keys: readonly string[]): readonly OperatorRule[] {
  const wanted = new Set(keys.map((k) => k.toLowerCase()));
  return Object.entries(rules).flatMap(([key, list]) => (wanted.has(key.trim().toLowerCase()) ? list : []));
}

/** Operator rules as provider rules: the substring is a text marker, so it needs the full text. */
export function toProviderRules(service: string, rules: readonly OperatorRule[]): ProviderErrorRule[] {
  return rules.map((rule, index) => ({
    id: `operator:${service}#${index + 1}`,
    statuses: [rule.status],
    textMarkers: [rule.match.toLowerCase()],
    reason: rule.reason,
    scope: rule.scope,
    ...(rule.cooldownMs === undefined ? {} : { cooldownMs: rule.cooldownMs }),
  }));
}
