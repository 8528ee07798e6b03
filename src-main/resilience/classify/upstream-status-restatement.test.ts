import { describe, expect, it } from 'vitest';
import { AGENTROUTER, classify, OPENAI, openaiError, respond } from './classify.testkit';
import { applyStatusRestatement } from './restatement';
import { STATUS_RESTATEMENT_RULES } from './restatement-rules';
import { RETRY_AFTER_ELIGIBLE_STATUSES } from './retry-hints';

const QUOTA_BODY = JSON.stringify(openaiError('用户额度不足, 剩余额度: $0.00', null, 'new_api_error'));

const restate = (status: number, text: string, retryAfterMs: number | null = null, service = 'agentrouter') =>
  applyStatusRestatement({ service, status, text, retryAfterMs });

describe('TEST-10 upstream-status-restatement', () => {
  it('RESTATE-2: the registry is keyed by service and holds the agentrouter rule', () => {
    expect(Object.keys(STATUS_RESTATEMENT_RULES)).toContain('agentrouter');
    expect(STATUS_RESTATEMENT_RULES.agentrouter?.[0]).toMatchObject({
      id: 'agentrouter-quota-misstatus',
      fromStatuses: [403, 400],
      toStatus: 429,
      defaultRetryAfterMs: 60_000,
    });
  });

  it('RESTATE-4, RESTATE-6: restates agentrouter 403 with 用户额度不足 to 429 announcing 60 s', () => {
    expect(restate(403, QUOTA_BODY)).toEqual({
      status: 429,
      fromStatus: 403,
      ruleId: 'agentrouter-quota-misstatus',
      retryAfterMs: 60_000,
    });
  });

  it('RESTATE-4: restates the sometimes-400 with 额度不足 to 429', () => {
    expect(restate(400, '{"error":{"message":"额度不足"}}').status).toBe(429);
  });

  it('RESTATE-4: a marker present only elsewhere in the body (message "Forbidden") still restates', () => {
    const body = JSON.stringify({ error: { message: 'Forbidden', detail: { reason: '用户额度不足' } } });
    expect(restate(403, body).status).toBe(429);
  });

  it('RESTATE-6: the upstream Retry-After wins over the rule default', () => {
    expect(restate(403, QUOTA_BODY, 5_000).retryAfterMs).toBe(5_000);
    expect(restate(403, QUOTA_BODY, 0).retryAfterMs).toBe(60_000);
  });

  it('RESTATE-7: 无权访问模型 vetoes the rule and keeps 403', () => {
    const result = restate(403, '{"error":{"message":"无权访问模型 claude-sonnet-4 (额度不足?)"}}');
    expect(result).toEqual({ status: 403, fromStatus: null, ruleId: null, retryAfterMs: null });
  });

  it('RESTATE-1: other 403s, other services and already-429 answers pass through untouched', () => {
    expect(restate(403, '{"error":{"message":"Invalid API key"}}').ruleId).toBeNull();
    expect(restate(403, QUOTA_BODY, null, 'openai')).toMatchObject({ status: 403, ruleId: null });
    expect(restate(429, QUOTA_BODY, 1_000)).toEqual({
      status: 429,
      fromStatus: null,
      ruleId: null,
      retryAfterMs: 1_000,
    });
    expect(restate(403, '')).toMatchObject({ status: 403, ruleId: null });
  });

  it('RESTATE-2: service ids match case-insensitively', () => {
    expect(restate(403, QUOTA_BODY, null, 'AgentRouter').status).toBe(429);
  });

  it('RESTATE-5: 429 is eligible to announce a retry window', () => {
    expect(RETRY_AFTER_ELIGIBLE_STATUSES.has(429)).toBe(true);
  });

  it('RESTATE-1, RESTATE-3: the classifier restates before it classifies, so 403 quota reads as a retryable 429', () => {
    const c = classify(respond(403, QUOTA_BODY), AGENTROUTER);
    expect(c).toMatchObject({ status: 429, restatedFrom: 403, reason: 'quota_exhausted', shouldFailover: true });
    expect(c.reason).not.toBe('auth_error');
    expect(c.lockScope).toBe('quota_family');
  });

  it('RESTATE-6: the announced 60 s is not a cooldown: no configured cooldown, no retry hint', () => {
    const c = classify(respond(403, QUOTA_BODY), AGENTROUTER);
    expect(c.announceRetryAfterMs).toBe(60_000);
    expect(c.configuredCooldownMs).toBeUndefined();
    expect(c.retryHint).toBeNull();
  });

  it('RESTATE-4: a \\u-escaped body restates like a raw one', () => {
    const escaped = '{"error":{"message":"\\u7528\\u6237\\u989d\\u5ea6\\u4e0d\\u8db3"}}';
    expect(classify(respond(403, escaped), AGENTROUTER).status).toBe(429);
  });

  it('RESTATE-7: through the classifier, 无权访问模型 keeps 403 and is not announced as retryable', () => {
    const c = classify(respond(403, '{"error":{"message":"无权访问模型 claude-sonnet-4"}}'), AGENTROUTER);
    expect(c.status).toBe(403);
    expect(c.restatedFrom).toBeUndefined();
    expect(c.announceRetryAfterMs).toBeUndefined();
  });

  it('RESTATE-2: the same Chinese text from OpenAI is not restated', () => {
    expect(classify(respond(403, QUOTA_BODY), OPENAI).status).toBe(403);
  });
});
