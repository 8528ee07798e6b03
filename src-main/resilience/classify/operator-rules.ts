import { z } from 'zod';
import type { ProviderErrorRule } from './provider-rules';
import { RULE_REASONS } from './provider-rules';

/** Operators declare at most this many rules in total: each one is searched on every failure. */
export const MAX_OPERATOR_RULES = 50;

/** One rule from `settings.providerErrorRules`: status plus a case-insensitive substring (never a regex). */
export const operatorRuleSchema = z
  .object({
    status: z.number().int().min(100).max(599),
    match: z.string().trim().min(1).max(200),
    scope: z.enum(['model', 'provider', 'connection']),
    reason: z.enum(RULE_REASONS).default('quota_exhausted'),
    cooldownMs: z
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 3_600_000)
      .optional(),
  })
  .strict();
export type OperatorRule = z.infer<typeof operatorRuleSchema>;

/**
 * RESTATE-17: `settings.providerErrorRules`, keyed by service id (`agentrouter`, or the bare host of
 * an unknown service) or by provider id (`openai-compatible@https://host`); keys are case-insensitive.
 */
export const providerErrorRulesSchema = z
  .record(z.string().trim().min(1).max(300), z.array(operatorRuleSchema))
  .superRefine((rules, ctx) => {
    const total = Object.values(rules).reduce((sum, list) => sum + list.length, 0);
    if (total > MAX_OPERATOR_RULES) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_OPERATOR_RULES} rules in total (got ${total})` });
    }
  });
export type OperatorRules = Readonly<Record<string, readonly OperatorRule[]>>;

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
