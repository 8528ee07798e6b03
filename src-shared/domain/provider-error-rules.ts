import { z } from 'zod';
import { MAX_OPERATOR_RULES } from './resilience-ranges';

/** Reasons a provider rule (built-in or operator) may assign; never a local or terminal reason. */
export const RULE_REASONS = [
  'quota_exhausted',
  'rate_limit_exceeded',
  'model_capacity',
  'server_error',
  'auth_error',
  'not_found',
  'model_unavailable',
  'request_rejected',
  'unknown',
] as const;
export type RuleReason = (typeof RULE_REASONS)[number];

/** What a matched rule cools down. */
export const RULE_SCOPES = ['model', 'provider', 'connection'] as const;

/** One rule from `settings.providerErrorRules`: status plus a case-insensitive substring (never a regex). */
export const operatorRuleSchema = z
  .object({
    status: z.number().int().min(100).max(599),
    match: z.string().trim().min(1).max(200),
    scope: z.enum(RULE_SCOPES),
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
 * The same schema checks a patch: lists replace by key, so a patch over the limit is over it merged too.
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
