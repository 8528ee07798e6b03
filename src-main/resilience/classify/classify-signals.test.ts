import { describe, expect, it } from 'vitest';
import {
  AGENTROUTER,
  ANTHROPIC,
  anthropicError,
  classify,
  CLAUDE_OAUTH,
  OPENAI,
  openaiError,
  respond,
} from './classify.testkit';

describe('classifyOutcome: account signals', () => {
  it('COOL-8: a ban keyword makes a banned terminal candidate on any status (reference §3.8 #1)', () => {
    expect(classify(respond(401, 'This account has been deactivated'))).toMatchObject({
      reason: 'banned',
      terminal: 'banned',
      scope: 'connection',
    });
    expect(
      classify(respond(403, anthropicError('permission_error', 'This organization has been disabled.')), CLAUDE_OAUTH),
    ).toMatchObject({ terminal: 'banned' });
    expect(classify(respond(400, 'Verify your account to continue'))).toMatchObject({ terminal: 'banned' });
  });

  it('COOL-8: operator ban signals are added to the built-in ones', () => {
    const c = classify(respond(403, 'Access revoked for abuse'), OPENAI, { customBanSignals: ['revoked for abuse'] });
    expect(c.terminal).toBe('banned');
    expect(classify(respond(403, 'Access revoked for abuse')).terminal).toBeNull();
  });

  it('COOL-8: an OAuth 403 "Request not allowed" is a request_rejected signal with a cooldown, not a ban', () => {
    const c = classify(respond(403, anthropicError('permission_error', 'Request not allowed')), CLAUDE_OAUTH);
    expect(c).toMatchObject({
      reason: 'request_rejected',
      requestRejected: true,
      scope: 'connection',
      terminal: null,
      shouldFailover: true,
    });
    expect(c.configuredCooldownMs).toBeUndefined();
  });

  it('COOL-9: 401 with an expired token is token_expired with an expired candidate; other 401s too', () => {
    const expired = anthropicError('authentication_error', 'OAuth token has expired. Please obtain a new token.');
    expect(classify(respond(401, expired), CLAUDE_OAUTH)).toMatchObject({
      reason: 'token_expired',
      terminal: 'expired',
      scope: 'connection',
    });
    expect(
      classify(respond(401, anthropicError('authentication_error', 'invalid x-api-key')), ANTHROPIC),
    ).toMatchObject({ reason: 'auth_error', terminal: 'expired' });
  });

  it('COOL-9: an OAuth invalid-credentials 401 that a refresh heals is never terminal', () => {
    const text =
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.';
    expect(classify(respond(401, text))).toMatchObject({ reason: 'auth_error', terminal: null });
  });

  it('COOL-14: a plain API-key 403 cools the connection without a terminal state; a route restriction charges nobody', () => {
    expect(classify(respond(403, 'Forbidden'))).toMatchObject({
      reason: 'auth_error',
      scope: 'connection',
      terminal: null,
    });
    expect(classify(respond(403, 'Key not authorized for this route'))).toMatchObject({
      scope: 'request',
      shouldFailover: false,
      lockScope: null,
    });
  });

  it('COOL-14: retired models and moved endpoints wait a day; the endpoint case blames the whole provider', () => {
    expect(classify(respond(404, 'The model gpt-3 has been deprecated'))).toMatchObject({
      reason: 'not_found',
      scope: 'model',
      configuredCooldownMs: 86_400_000,
    });
    expect(classify(respond(410, 'This endpoint has moved, please update your base URL'))).toMatchObject({
      scope: 'provider',
      configuredCooldownMs: 86_400_000,
    });
    expect(classify(respond(404, 'This API version no longer works')).scope).toBe('provider');
    expect(classify(respond(400, 'The temperature parameter no longer works')).scope).toBe('request');
  });

  it('COOL-4: weekly, session and subscription windows cool for their length unless the upstream names the reset', () => {
    expect(classify(respond(429, 'Weekly usage limit reached'), CLAUDE_OAUTH).configuredCooldownMs).toBe(86_400_000);
    expect(classify(respond(429, 'Session limit reached'), CLAUDE_OAUTH).configuredCooldownMs).toBe(5 * 3_600_000);
    expect(classify(respond(429, 'Claude AI usage limit reached'), CLAUDE_OAUTH).configuredCooldownMs).toBe(3_600_000);
    const hinted = classify(respond(429, 'usage limit reached', { 'retry-after': '600' }), CLAUDE_OAUTH);
    expect(hinted).toMatchObject({ reason: 'quota_exhausted', configuredCooldownMs: 600_000 });
  });

  it('COOL-4: a daily quota waits for local midnight; a tokens-per-day limit without a reset is not guessed', () => {
    const daily = classify(respond(429, "You have used up today's quota, try again tomorrow"), CLAUDE_OAUTH);
    expect(daily.reason).toBe('quota_exhausted');
    expect(daily.configuredCooldownMs).toBeGreaterThan(0);
    expect(daily.configuredCooldownMs).toBeLessThanOrEqual(86_400_000);
    expect(classify(respond(429, 'TPD rate limit hit'), CLAUDE_OAUTH).configuredCooldownMs).toBeUndefined();
  });

  it('COOL-4: quota text with a parseable reset is quota_exhausted carrying the reset', () => {
    const c = classify(respond(429, 'Your hour quota has been exceeded, resets in 2 hours'), CLAUDE_OAUTH);
    expect(c).toMatchObject({ reason: 'quota_exhausted', retryHint: { ms: 7_200_000, source: 'body' } });
  });
});

describe('classifyOutcome: 400 pattern sets', () => {
  it('RESTATE-18: context overflow goes back to the client untouched: request scope, no failover, no lock', () => {
    const c = classify(
      respond(400, anthropicError('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum')),
      ANTHROPIC,
    );
    expect(c).toMatchObject({
      reason: 'context_overflow',
      scope: 'request',
      shouldFailover: false,
      lockScope: null,
      countsForBreaker: false,
    });
    expect(classify(respond(413, 'Request Entity Too Large'))).toMatchObject({
      reason: 'context_overflow',
      shouldFailover: false,
    });
    expect(
      classify(respond(400, openaiError('maximum context length is 128000 tokens', 'context_length_exceeded'))).reason,
    ).toBe('context_overflow');
  });

  it("RESTATE-18: an unrecognised 400 is the request's fault (reference §3.8 #9)", () => {
    expect(classify(respond(400, 'bad request payload'))).toMatchObject({
      reason: 'bad_request',
      scope: 'request',
      shouldFailover: false,
    });
    expect(classify(respond(400, 'max_tokens must be less than 8192'))).toMatchObject({
      reason: 'bad_request',
      scope: 'request',
    });
  });

  it('RESTATE-18: model-access 400s blame the model so another target may serve (reference §3.8 #10-13)', () => {
    expect(classify(respond(400, 'The model `foo` does not exist or is not available'))).toMatchObject({
      reason: 'model_unavailable',
      scope: 'model',
      shouldFailover: true,
      lockScope: 'exact',
    });
    expect(classify(respond(400, 'Invalid API key provided for model gpt-4o'))).toMatchObject({
      scope: 'request',
      shouldFailover: false,
    });
    expect(classify(respond(400, openaiError('Invalid API key', 'model_not_found')))).toMatchObject({ scope: 'model' });
    expect(
      classify(
        respond(400, anthropicError('permission_error', 'You do not have access to model claude-opus-4')),
        ANTHROPIC,
      ).scope,
    ).toBe('model');
    expect(
      classify(
        respond(400, anthropicError('permission_error', 'This feature is not enabled for your organization')),
        ANTHROPIC,
      ).scope,
    ).toBe('request');
  });

  it('RESTATE-18: a rate limit sent as 400 cools the connection', () => {
    expect(classify(respond(400, '请求过于频繁'))).toMatchObject({
      reason: 'rate_limit_exceeded',
      scope: 'connection',
      shouldFailover: true,
    });
  });
});

describe('classifyOutcome: message', () => {
  it('COOL-2: the message is short, names the target, and never repeats a secret', () => {
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    const body = openaiError(`Incorrect API key provided: ${secret}. ${'x'.repeat(500)}`, 'invalid_api_key');
    const c = classify(respond(401, body));
    expect(c.message).toMatch(/^openai\/test-model 401 auth_error: Incorrect API key provided: sk-\*\*\*/);
    expect(c.message).not.toContain('abcdefghij');
    expect(c.message.length).toBeLessThanOrEqual(260);
  });

  it('COOL-2: a restated status says what it was; without a model the service alone is named', () => {
    const c = classify(respond(403, openaiError('用户额度不足')), AGENTROUTER, { model: 'claude-sonnet-4' });
    expect(c.message).toBe('agentrouter/claude-sonnet-4 429 (was 403) quota_exhausted: 用户额度不足');
    expect(classify(respond(429, 'x'), OPENAI, { model: null }).message).toBe('openai 429 rate_limit_exceeded: x');
  });
});
