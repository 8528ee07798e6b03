import { describe, expect, it } from 'vitest';
import { isRuleConnectionQuotaScope } from './classification';
import { classify, openaiError, provider, respond } from './classify.testkit';
import { DEFAULT_ERROR_CATALOG, type ErrorCatalog } from './error-catalog';
import { resolveRuleMatchBody } from './provider-rules';
import { STATUS_RESTATEMENT_RULES } from './restatement-rules';
import { CREDITS_EXHAUSTED_SIGNALS } from './signals';

/** A made-up gateway that reports its temporary quota as 402 "点数耗尽", added by registry entries only. */
const QUOTAGW = provider('openai-compatible', 'https://api.quotagw.example');
const CATALOG: ErrorCatalog = {
  knownHosts: [...DEFAULT_ERROR_CATALOG.knownHosts, { suffix: 'quotagw.example', service: 'quotagw' }],
  restatementRules: {
    ...DEFAULT_ERROR_CATALOG.restatementRules,
    quotagw: [
      {
        id: 'quotagw-quota-misstatus',
        fromStatuses: [402],
        toStatus: 429,
        textMarkers: ['点数耗尽'],
        defaultRetryAfterMs: 30_000,
      },
    ],
  },
  providerRules: {
    ...DEFAULT_ERROR_CATALOG.providerRules,
    quotagw: [
      {
        id: 'quotagw-quota',
        statuses: [429],
        textMarkers: ['点数耗尽'],
        reason: 'quota_exhausted',
        scope: 'connection',
      },
    ],
  },
  fullTextProviders: new Set([...DEFAULT_ERROR_CATALOG.fullTextProviders, 'quotagw']),
  honorsRuleScopeProviders: new Set([...DEFAULT_ERROR_CATALOG.honorsRuleScopeProviders, 'quotagw']),
};
const BODY = respond(402, openaiError('点数耗尽, 请稍后再试'));

describe('adding a quota-misstating gateway', () => {
  it('RESTATE-19: registry entries alone restate the status and classify a self-healing connection quota', () => {
    const c = classify(BODY, QUOTAGW, { catalog: CATALOG });
    expect(c).toMatchObject({
      status: 429,
      restatedFrom: 402,
      announceRetryAfterMs: 30_000,
      reason: 'quota_exhausted',
      scope: 'connection',
      ruleScope: 'connection',
      ruleId: 'quotagw-quota',
    });
    expect(c.terminal).toBeNull();
    expect(c.reason).not.toBe('credits_exhausted');
    expect(isRuleConnectionQuotaScope(c)).toBe(true);
  });

  it('RESTATE-19: without the entries the same answer is an ordinary 402', () => {
    const c = classify(BODY, QUOTAGW);
    expect(c.status).toBe(402);
    expect(c.ruleScope).toBeUndefined();
  });

  it('RESTATE-19: the full text goes to the allowlisted gateway only', () => {
    const opts = { fullTextProviders: CATALOG.fullTextProviders, hasOperatorRule: false };
    const structured = { code: null, type: 'quota_error' };
    expect(resolveRuleMatchBody('quotagw', structured, '点数耗尽', opts)).toBe('点数耗尽');
    expect(resolveRuleMatchBody('openrouter', structured, '点数耗尽', opts)).toEqual(structured);
  });

  it('RESTATE-19: no restatement marker overlaps a credits-exhausted signal', () => {
    const markers = Object.values({ ...STATUS_RESTATEMENT_RULES, ...CATALOG.restatementRules })
      .flat()
      .flatMap((rule) => rule.textMarkers.map((m) => m.toLowerCase()));
    for (const marker of markers) {
      for (const signal of CREDITS_EXHAUSTED_SIGNALS) {
        expect(marker.includes(signal) || signal.includes(marker), `${marker} vs ${signal}`).toBe(false);
      }
    }
  });
});
