import { parseDurationText } from './durations';
import { headerValue } from './headers';
import type { ProviderErrorRule, ProviderRuleRegistry, RuleInput } from './provider-rules';

/** RESTATE-9: services whose rules may read the full error text (initially only agentrouter). */
export const FULL_TEXT_RULE_PROVIDERS: ReadonlySet<string> = new Set(['agentrouter']);

/** RESTATE-10: services whose rule scope consumers act on (initially only agentrouter). */
export const HONORS_RULE_LOCK_SCOPE_PROVIDERS: ReadonlySet<string> = new Set(['agentrouter']);

const RESETS_IN = /resets? in\s+(\d+(?:\.\d+)?\s*(?:days?|hours?|minutes?|seconds?))/;

/** "resets in 13 days" → milliseconds; only a positive countdown counts. */
function resetCountdownMs(input: RuleInput): number | null {
  if (typeof input.body !== 'string') return null;
  const m = RESETS_IN.exec(input.body);
  const ms = m?.[1] ? parseDurationText(m[1]) : null;
  return ms !== null && ms > 0 ? ms : null;
}

function headerIsZero(input: RuleInput, name: string): boolean {
  const value = headerValue(input.headers, name);
  return value !== undefined && Number(value) === 0;
}

/** `x-model-quota-remaining: haiku=0,sonnet=42` — any model at zero. */
function someModelQuotaIsZero(input: RuleInput): boolean {
  const value = headerValue(input.headers, 'x-model-quota-remaining');
  if (value === undefined) return false;
  return value.split(',').some((pair) => {
    const count = pair.split('=')[1]?.trim();
    return count !== undefined && count !== '' && Number(count) === 0;
  });
}

const OPENCODE_RULES: readonly ProviderErrorRule[] = [
  {
    id: 'opencode-endpoint-unavailable',
    statuses: [400, 429],
    textMarkers: ['endpoint is unavailable'],
    reason: 'model_capacity',
    scope: 'model',
    cooldownMs: 300_000,
  },
  {
    id: 'opencode-monthly-limit',
    statuses: [429],
    textMarkers: ['monthly usage limit reached'],
    when: (input) => resetCountdownMs(input) !== null,
    reason: 'quota_exhausted',
    scope: 'connection',
    cooldownMs: resetCountdownMs,
  },
  {
    id: 'opencode-ratelimit-remaining-zero',
    statuses: [429],
    when: (input) =>
      headerIsZero(input, 'x-ratelimit-remaining-requests') || headerIsZero(input, 'x-ratelimit-remaining-tokens'),
    reason: 'quota_exhausted',
    scope: 'connection',
  },
  {
    id: 'opencode-account-quota',
    statuses: [429],
    textMarkers: ['organization_quota_exceeded', 'account_quota_exceeded', 'plan_limit_reached'],
    reason: 'quota_exhausted',
    scope: 'connection',
  },
  {
    id: 'opencode-upstream-model-unavailable',
    statuses: [400],
    textMarkers: ['upstream request failed: model is unavailable.'],
    reason: 'model_capacity',
    scope: 'model',
    cooldownMs: 3_600_000,
  },
];

/** The built-in provider rules (reference §6.3), keyed by service id. */
export const BUILT_IN_PROVIDER_RULES: ProviderRuleRegistry = {
  agentrouter: [
    {
      // RESTATE-11: the permanent "no access to this model" 403; locks the model, not the account.
      id: 'agentrouter-model-access-denied',
      statuses: [403],
      textMarkers: ['无权访问模型'],
      reason: 'auth_error',
      scope: 'model',
      cooldownMs: 6 * 3_600_000,
    },
    {
      // RESTATE-12: the account's quota ran out; no declared cooldown, the default backoff applies.
      id: 'agentrouter-user-quota-exhausted',
      statuses: [400, 403, 429],
      textMarkers: ['额度不足'],
      excludeMarkers: ['无权访问'],
      reason: 'quota_exhausted',
      scope: 'connection',
    },
  ],
  opencode: OPENCODE_RULES,
  minimax: [
    {
      id: 'minimax-model-quota-zero',
      statuses: [429],
      when: someModelQuotaIsZero,
      reason: 'quota_exhausted',
      scope: 'model',
    },
  ],
  'cloudflare-ai': [
    {
      id: 'cloudflare-daily-free-allocation',
      statuses: [429],
      textMarkers: ['daily free allocation'],
      reason: 'quota_exhausted',
      scope: 'connection',
    },
  ],
  openrouter: [
    {
      id: 'openrouter-payment-required',
      statuses: [402],
      reason: 'quota_exhausted',
      scope: 'connection',
      cooldownMs: 120_000,
    },
  ],
};
