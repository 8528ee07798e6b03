import { RULE_REASONS as SHARED_RULE_REASONS } from '../../../src-shared/domain/provider-error-rules';
import type { FailureReason, RuleScope } from './classification';
import type { HeaderMap } from './headers';
import type { StructuredError } from './upstream-error';

/** Reasons a provider rule (built-in or operator) may assign; never a local or terminal reason (list shared with the settings schema). */
export const RULE_REASONS = SHARED_RULE_REASONS satisfies readonly FailureReason[];
export type RuleReason = (typeof RULE_REASONS)[number];

/** RESTATE-9: the full error text (allowlisted providers) or only the structured error (everyone else). */
export type RuleMatchBody = string | StructuredError | null;

export interface RuleInput {
  status: number;
  headers: HeaderMap;
  body: RuleMatchBody;
}

/**
 * RESTATE-8: one classification rule of a provider. Text markers need the full text; `codes` match
 * `error.code` / `error.type` and work for every provider; `when` tests headers or computed facts.
 */
export interface ProviderErrorRule {
  id: string;
  statuses: readonly number[];
  /** Lower-case substrings; any one suffices. */
  textMarkers?: readonly string[];
  excludeMarkers?: readonly string[];
  codes?: readonly string[];
  when?: (input: RuleInput) => boolean;
  reason: RuleReason;
  scope: RuleScope;
  /** A declared cooldown, or one computed from the error (null: none this time). */
  cooldownMs?: number | ((input: RuleInput) => number | null);
}

/** Provider rules by service id. */
export type ProviderRuleRegistry = Readonly<Record<string, readonly ProviderErrorRule[]>>;

/** RESTATE-10: what a matched rule decides (seed type: ProviderErrorRuleMatch). */
export interface ProviderRuleMatch {
  ruleId: string;
  reason: RuleReason;
  scope: RuleScope;
  cooldownMs: number | null;
}

/**
 * RESTATE-9/17: picks what rules may read. Full text only for allowlisted services or services with
 * an operator rule (declaring one is the opt-in); otherwise the structured error, or null.
 */
export function resolveRuleMatchBody(
  service: string,
  structured: StructuredError | null,
  text: string,
  opts: { fullTextProviders: ReadonlySet<string>; hasOperatorRule: boolean },
): RuleMatchBody {
  const fullText = opts.hasOperatorRule || opts.fullTextProviders.has(service.toLowerCase());
  if (fullText && text.trim()) return text.toLowerCase();
  return structured;
}

/** RESTATE-10/17: whether consumers may act on a matched rule's scope for this service. */
export function honorsRuleLockScope(
  service: string | null,
  opts: { honorsProviders: ReadonlySet<string>; hasOperatorRule: boolean },
): boolean {
  if (service === null) return false;
  return opts.hasOperatorRule || opts.honorsProviders.has(service.toLowerCase());
}

function textIncludesAny(body: RuleMatchBody, markers: readonly string[]): boolean {
  return typeof body === 'string' && markers.some((m) => body.includes(m.toLowerCase()));
}

function codeMatches(body: RuleMatchBody, codes: readonly string[]): boolean {
  if (body === null) return false;
  if (typeof body === 'string') return textIncludesAny(body, codes);
  const seen = [body.code, body.type].map((v) => v?.toLowerCase());
  return codes.some((c) => seen.includes(c.toLowerCase()));
}

function ruleMatches(rule: ProviderErrorRule, input: RuleInput): boolean {
  if (!rule.statuses.includes(input.status)) return false;
  if (rule.textMarkers && !textIncludesAny(input.body, rule.textMarkers)) return false;
  if (rule.excludeMarkers && textIncludesAny(input.body, rule.excludeMarkers)) return false;
  if (rule.codes && !codeMatches(input.body, rule.codes)) return false;
  return rule.when ? rule.when(input) : true;
}

/** First rule matching status, markers, codes and predicate; its cooldown resolved for this error. */
export function matchProviderRule(rules: readonly ProviderErrorRule[], input: RuleInput): ProviderRuleMatch | null {
  for (const rule of rules) {
    if (!ruleMatches(rule, input)) continue;
    const cooldown = typeof rule.cooldownMs === 'function' ? rule.cooldownMs(input) : rule.cooldownMs;
    return { ruleId: rule.id, reason: rule.reason, scope: rule.scope, cooldownMs: cooldown ?? null };
  }
  return null;
}
