import { describe, expect, it } from 'vitest';
import { classify, NVIDIA, OPENROUTER, openaiError, respond, UNKNOWN_GATEWAY } from './classify.testkit';
import { MAX_OPERATOR_RULES, operatorRulesFor, providerErrorRulesSchema, type OperatorRules } from './operator-rules';

const rule = (over: Record<string, unknown> = {}) => ({
  status: 404,
  match: 'not found for account',
  scope: 'model',
  ...over,
});
const rules = (input: unknown): OperatorRules => providerErrorRulesSchema.parse(input);

describe('operator provider error rules', () => {
  it('RESTATE-17: an operator rule classifies a provider the catalog knows nothing about', () => {
    const operatorRules = rules({ nvidia: [rule({ cooldownMs: 1_000 })] });
    const c = classify(respond(404, openaiError('Not Found for account abc')), NVIDIA, { operatorRules });
    expect(c).toMatchObject({
      reason: 'quota_exhausted',
      scope: 'model',
      ruleScope: 'model',
      ruleId: 'operator:nvidia#1',
      configuredCooldownMs: 1_000,
    });
  });

  it('RESTATE-17: declaring a rule grants the full text and the scope opt-in regardless of the allowlists', () => {
    const operatorRules = rules({
      openrouter: [rule({ status: 402, match: 'requires more credits', scope: 'model' })],
    });
    const c = classify(respond(402, openaiError('This request requires more credits')), OPENROUTER, { operatorRules });
    expect(c).toMatchObject({ scope: 'model', ruleScope: 'model', ruleId: 'operator:openrouter#1' });
  });

  it('RESTATE-17: an operator rule beats the catalog, and without one the catalog is intact', () => {
    const text = respond(402, openaiError('This request requires more credits'));
    expect(classify(text, OPENROUTER)).toMatchObject({
      ruleId: 'openrouter-payment-required',
      configuredCooldownMs: 120_000,
    });
    const operatorRules = rules({
      openrouter: [rule({ status: 402, match: 'credits', scope: 'connection', reason: 'rate_limit_exceeded' })],
    });
    expect(classify(text, OPENROUTER, { operatorRules })).toMatchObject({
      reason: 'rate_limit_exceeded',
      ruleId: 'operator:openrouter#1',
    });
  });

  it('RESTATE-17: an operator can turn a 401 into a self-healing connection quota event', () => {
    const operatorRules = rules({
      'llm.example.com': [rule({ status: 401, match: 'transient quota', scope: 'connection' })],
    });
    const c = classify(respond(401, 'Unauthorized: transient quota exceeded'), UNKNOWN_GATEWAY, { operatorRules });
    expect(c).toMatchObject({
      reason: 'quota_exhausted',
      scope: 'connection',
      ruleScope: 'connection',
      terminal: null,
    });
  });

  it('RESTATE-17: matching is a case-insensitive substring, the status must match, keys ignore case', () => {
    const operatorRules = rules({ NVIDIA: [rule({ match: 'NOT FOUND for Account' })] });
    expect(classify(respond(404, 'not found for account'), NVIDIA, { operatorRules }).ruleId).toBe('operator:nvidia#1');
    expect(classify(respond(500, 'not found for account'), NVIDIA, { operatorRules }).ruleId).toBe('status-500');
    expect(operatorRulesFor(operatorRules, ['nvidia'])).toHaveLength(1);
  });

  it('RESTATE-17: rules may be keyed by the bare host of an unknown service or by the provider id', () => {
    const byId = rules({ [UNKNOWN_GATEWAY.id]: [rule({ status: 429, match: 'slow', scope: 'provider' })] });
    expect(classify(respond(429, 'slow down'), UNKNOWN_GATEWAY, { operatorRules: byId }).ruleScope).toBe('provider');
  });

  it('RESTATE-17: a provider without rules classifies normally and nothing throws', () => {
    const operatorRules = rules({ nvidia: [rule()] });
    const c = classify(respond(404, 'no such thing'), UNKNOWN_GATEWAY, { operatorRules });
    expect(c).toMatchObject({ reason: 'not_found', scope: 'model' });
    expect(c.ruleScope).toBeUndefined();
  });

  it('RESTATE-18: an operator 400 rule wins over the 400 pattern sets; without it the patterns decide', () => {
    const body = respond(400, openaiError('model foo is not supported on this plan'));
    const operatorRules = rules({
      'llm.example.com': [rule({ status: 400, match: 'not supported', scope: 'provider', cooldownMs: 21_600_000 })],
    });
    const ruled = classify(body, UNKNOWN_GATEWAY, { operatorRules });
    expect(ruled).toMatchObject({ reason: 'quota_exhausted', ruleScope: 'provider', configuredCooldownMs: 21_600_000 });
    expect(ruled.shouldFailover).toBe(true);
    const plain = classify(body, UNKNOWN_GATEWAY);
    expect(plain).toMatchObject({ reason: 'model_unavailable', scope: 'model' });
    expect(plain.ruleScope).toBeUndefined();
    expect(plain.configuredCooldownMs).toBeUndefined();
  });

  it('RESTATE-17: the settings schema fills the default reason and refuses bad rules', () => {
    expect(rules({ x: [rule()] }).x?.[0]?.reason).toBe('quota_exhausted');
    const bad = [
      { x: [rule({ scope: 'request' })] },
      { x: [rule({ status: 99 })] },
      { x: [rule({ match: '  ' })] },
      { x: [rule({ reason: 'banned' })] },
      { x: [rule({ cooldownMs: -1 })] },
      { x: [rule({ regex: '.*' })] },
      { x: Array.from({ length: MAX_OPERATOR_RULES + 1 }, () => rule()) },
    ];
    for (const input of bad)
      expect(providerErrorRulesSchema.safeParse(input).success, JSON.stringify(input).slice(0, 80)).toBe(false);
    expect(
      providerErrorRulesSchema.safeParse({ x: Array.from({ length: MAX_OPERATOR_RULES }, () => rule()) }).success,
    ).toBe(true);
  });
});
