import { describe, expect, it } from 'vitest';
import { isRuleConnectionQuotaScope } from './classification';
import { AGENTROUTER, classify, MINIMAX, OPENCODE, OPENROUTER, openaiError, respond } from './classify.testkit';
import { normalizeHeaders } from './headers';
import {
  BUILT_IN_PROVIDER_RULES,
  FULL_TEXT_RULE_PROVIDERS,
  HONORS_RULE_LOCK_SCOPE_PROVIDERS,
} from './provider-rule-catalog';
import { honorsRuleLockScope, matchProviderRule, resolveRuleMatchBody } from './provider-rules';

const agentrouterRules = BUILT_IN_PROVIDER_RULES.agentrouter ?? [];
const quota = (status: number) => respond(status, openaiError('用户额度不足, 剩余额度: $0.00'));
const noAccess = respond(403, openaiError('无权访问模型 claude-opus-4 (request id: 2025060112000012345)'));
const builtIn = { fullTextProviders: FULL_TEXT_RULE_PROVIDERS, hasOperatorRule: false };
const honours = { honorsProviders: HONORS_RULE_LOCK_SCOPE_PROVIDERS, hasOperatorRule: false };

describe('TEST-11 agentrouter-error-rules', () => {
  it('RESTATE-12: a restated 用户额度不足 reaches agentrouter-user-quota-exhausted: connection quota, no cooldown', () => {
    const c = classify(quota(403), AGENTROUTER);
    expect(c).toMatchObject({
      reason: 'quota_exhausted',
      scope: 'connection',
      ruleScope: 'connection',
      ruleId: 'agentrouter-user-quota-exhausted',
      status: 429,
      restatedFrom: 403,
    });
    expect(c.configuredCooldownMs).toBeUndefined();
  });

  it('RESTATE-13: the quota error is never permanent and never credits exhaustion, so the guard passes', () => {
    for (const status of [400, 403, 429]) {
      const c = classify(quota(status), AGENTROUTER);
      expect(c.terminal, `status ${status}`).toBeNull();
      expect(c.reason).not.toBe('credits_exhausted');
      expect(c.reason).not.toBe('banned');
      expect(isRuleConnectionQuotaScope(c)).toBe(true);
    }
  });

  it('RESTATE-12: a raw (unrestated) 403 with the quota text matches the rule too', () => {
    const input = { status: 403, headers: normalizeHeaders({}), body: '用户额度不足' };
    expect(matchProviderRule(agentrouterRules, input)).toMatchObject({
      ruleId: 'agentrouter-user-quota-exhausted',
      reason: 'quota_exhausted',
      scope: 'connection',
    });
  });

  it('RESTATE-11: 无权访问模型 locks the model for a declared 6 h, as auth_error, and leaves the connection alone', () => {
    const c = classify(noAccess, AGENTROUTER);
    expect(c).toMatchObject({
      reason: 'auth_error',
      scope: 'model',
      ruleScope: 'model',
      ruleId: 'agentrouter-model-access-denied',
      configuredCooldownMs: 21_600_000,
      status: 403,
      terminal: null,
      shouldFailover: true,
      countsForBreaker: false,
    });
    expect(isRuleConnectionQuotaScope(c)).toBe(false);
  });

  it('RESTATE-11: an agentrouter 403 that matches no rule falls back to the generic API-key 403', () => {
    const c = classify(respond(403, openaiError('Invalid API key')), AGENTROUTER);
    expect(c).toMatchObject({ reason: 'auth_error', scope: 'connection', terminal: null });
    expect(c.ruleScope).toBeUndefined();
    expect(
      matchProviderRule(agentrouterRules, { status: 403, headers: normalizeHeaders({}), body: 'invalid api key' }),
    ).toBeNull();
  });

  it('RESTATE-9: only allowlisted services get the full text; others get the structured error or nothing', () => {
    const structured = { code: 'quota', type: 'new_api_error' };
    expect(resolveRuleMatchBody('agentrouter', structured, '用户额度不足', builtIn)).toBe('用户额度不足');
    expect(resolveRuleMatchBody('opencode', structured, 'organization_quota_exceeded', builtIn)).toEqual(structured);
    expect(resolveRuleMatchBody('openrouter', null, 'credits exhausted', builtIn)).toBeNull();
    expect(resolveRuleMatchBody('agentrouter', structured, '', builtIn)).toEqual(structured);
    expect([...FULL_TEXT_RULE_PROVIDERS]).toEqual(['agentrouter']);
  });

  it('RESTATE-10: rule scope is honoured for agentrouter only, case-insensitively, never for null', () => {
    expect(honorsRuleLockScope('agentrouter', honours)).toBe(true);
    expect(honorsRuleLockScope('AgentRouter', honours)).toBe(true);
    for (const other of ['opencode', 'openrouter', 'minimax']) expect(honorsRuleLockScope(other, honours)).toBe(false);
    expect(honorsRuleLockScope(null, honours)).toBe(false);
  });

  it('RESTATE-10: openrouter 402s carry no ruleScope (not allowlisted), whether credits text or the catalog rule decides', () => {
    const credits = classify(respond(402, openaiError('credits exhausted')), OPENROUTER);
    expect(credits).toMatchObject({ reason: 'credits_exhausted', terminal: 'credits_exhausted' });
    expect(credits.ruleScope).toBeUndefined();
    const rule = classify(
      respond(402, openaiError('This request requires more credits, or fewer max_tokens.')),
      OPENROUTER,
    );
    expect(rule).toMatchObject({
      reason: 'quota_exhausted',
      scope: 'connection',
      ruleId: 'openrouter-payment-required',
      configuredCooldownMs: 120_000,
      terminal: null,
    });
    expect(rule.ruleScope).toBeUndefined();
  });

  it('RESTATE-9: opencode body-marker rules stay blind without the full text; no ruleScope', () => {
    const c = classify(respond(429, { error: { message: 'organization_quota_exceeded' } }), OPENCODE);
    expect(c.ruleId).not.toBe('opencode-account-quota');
    expect(c.ruleScope).toBeUndefined();
    expect(c.scope).toBe('connection');
  });

  it('RESTATE-19: header-only rules (opencode, minimax) work without the full text', () => {
    const opencode = classify(respond(429, 'slow down', { 'x-ratelimit-remaining-requests': '0' }), OPENCODE);
    expect(opencode).toMatchObject({
      reason: 'quota_exhausted',
      ruleId: 'opencode-ratelimit-remaining-zero',
      scope: 'connection',
    });
    expect(opencode.ruleScope).toBeUndefined();
    const minimax = classify(respond(429, 'quota', { 'x-model-quota-remaining': 'haiku=0,sonnet=42' }), MINIMAX);
    expect(minimax).toMatchObject({ reason: 'quota_exhausted', ruleId: 'minimax-model-quota-zero' });
    expect(minimax.ruleScope).toBeUndefined();
    const roomy = classify(respond(429, 'slow down', { 'x-model-quota-remaining': 'haiku=3,sonnet=42' }), MINIMAX);
    expect(roomy.ruleId).not.toBe('minimax-model-quota-zero');
  });
});
