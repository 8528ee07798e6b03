import { describe, expect, it } from 'vitest';
import type { UpstreamOutcome } from './classification';
import {
  ANTHROPIC,
  anthropicError,
  classify,
  CLAUDE_OAUTH,
  DEEPSEEK,
  NOW,
  OPENAI,
  openaiError,
  respond,
  UNKNOWN_GATEWAY,
} from './classify.testkit';

describe('classifyOutcome: local and transport failures', () => {
  for (const failure of ['client_closed', 'queue_timeout', 'aborted'] as const) {
    it(`BRK-2, COOL-14: a local ${failure} is never charged to an upstream`, () => {
      const c = classify({ kind: 'local', failure });
      expect(c).toMatchObject({
        reason: failure,
        scope: 'request',
        shouldFailover: false,
        countsForBreaker: false,
        status: null,
        terminal: null,
        requestRejected: false,
        lockScope: null,
        retryHint: null,
      });
    });
  }

  it('BRK-2, LOCK-4: timeouts and network failures charge the provider and lock only the exact model', () => {
    const cases: [UpstreamOutcome, string][] = [
      [{ kind: 'transport', failure: 'timeout' }, 'timeout'],
      [{ kind: 'transport', failure: 'unreachable' }, 'network_error'],
      [{ kind: 'transport', failure: 'reset' }, 'network_error'],
    ];
    for (const [outcome, reason] of cases) {
      expect(classify(outcome)).toMatchObject({
        reason,
        scope: 'provider',
        shouldFailover: true,
        countsForBreaker: true,
        lockScope: 'exact',
      });
    }
  });

  it('LOCK-4: our own synthesised 502 for an empty answer locks the exact model and spares the breaker', () => {
    const c = classify({ kind: 'transport', failure: 'empty_response' });
    expect(c).toMatchObject({
      reason: 'empty_response',
      status: 502,
      scope: 'model',
      lockScope: 'exact',
      countsForBreaker: false,
      shouldFailover: true,
    });
  });

  it('LOCK-5: a lock scope passed by the caller always wins', () => {
    expect(classify(respond(429, 'slow down'), OPENAI, { explicitLockScope: 'exact' }).lockScope).toBe('exact');
    expect(
      classify({ kind: 'transport', failure: 'timeout' }, OPENAI, { explicitLockScope: 'quota_family' }).lockScope,
    ).toBe('quota_family');
  });
});

describe('classifyOutcome: status table', () => {
  it('BRK-2: only 408/500/502/503/504 count for the breaker', () => {
    for (const status of [408, 500, 502, 503, 504]) {
      expect(classify(respond(status, 'upstream error')), `status ${status}`).toMatchObject({
        scope: 'provider',
        countsForBreaker: true,
        shouldFailover: true,
      });
    }
    for (const status of [400, 401, 402, 403, 404, 429, 501, 529]) {
      expect(classify(respond(status, 'upstream error')).countsForBreaker, `status ${status}`).toBe(false);
    }
  });

  it('COOL-4, LOCK-2: a plain 429 cools the connection, locks the quota family and carries the Retry-After', () => {
    const c = classify(
      respond(429, openaiError('Rate limit reached for requests', 'rate_limit_exceeded'), { 'retry-after': '120' }),
    );
    expect(c).toMatchObject({
      reason: 'rate_limit_exceeded',
      scope: 'connection',
      shouldFailover: true,
      lockScope: 'quota_family',
      retryHint: { ms: 120_000, source: 'header' },
      announceRetryAfterMs: 120_000,
    });
  });

  it('COOL-4: a reset time stated in the 429 text becomes the retry hint', () => {
    const c = classify(respond(429, openaiError('Rate limit reached on tokens per min. Please try again in 20s.')));
    expect(c.retryHint).toEqual({ ms: 20_000, source: 'body' });
  });

  it('COOL-4: a 503 with x-ratelimit-reset keeps server_error and carries the reset (reference §3.8 #8)', () => {
    const c = classify(respond(503, 'busy', { 'x-ratelimit-reset': String(Math.floor((NOW + 90_000) / 1000)) }));
    expect(c).toMatchObject({ reason: 'server_error', retryHint: { ms: 90_000, source: 'header' } });
  });

  it('COOL-14: an overloaded model on a 429 locks the model, not the key; 529 is provider-wide but not a breaker status', () => {
    expect(classify(respond(429, anthropicError('rate_limit_error', 'Model is overloaded')), ANTHROPIC)).toMatchObject({
      reason: 'model_capacity',
      scope: 'model',
    });
    expect(classify(respond(529, anthropicError('overloaded_error', 'Overloaded')), ANTHROPIC)).toMatchObject({
      reason: 'model_capacity',
      scope: 'provider',
      countsForBreaker: false,
    });
  });

  it('COOL-14: a 5xx that reports a rate limit blames the key, not the provider', () => {
    expect(classify(respond(503, 'Too Many Requests'))).toMatchObject({
      reason: 'rate_limit_exceeded',
      scope: 'connection',
      countsForBreaker: false,
    });
  });

  it('LOCK-3: 404 is not_found on the bare model', () => {
    expect(classify(respond(404, openaiError('The model `gpt-9` does not exist', 'model_not_found')))).toMatchObject({
      reason: 'not_found',
      scope: 'model',
      lockScope: 'model',
      shouldFailover: true,
    });
  });

  it('LOCK-2: 402 and 403 lock the quota family', () => {
    expect(classify(respond(402, 'Payment Required'), DEEPSEEK).lockScope).toBe('quota_family');
    expect(classify(respond(403, 'Forbidden')).lockScope).toBe('quota_family');
  });

  it('COOL-7: 402 and credit signals are credits_exhausted terminal candidates', () => {
    expect(classify(respond(402, openaiError('Insufficient Balance')), DEEPSEEK)).toMatchObject({
      reason: 'credits_exhausted',
      terminal: 'credits_exhausted',
      scope: 'connection',
    });
    const anthropic = anthropicError(
      'invalid_request_error',
      'Your credit balance is too low to access the Anthropic API.',
    );
    expect(classify(respond(400, anthropic), ANTHROPIC)).toMatchObject({
      reason: 'credits_exhausted',
      terminal: 'credits_exhausted',
      shouldFailover: true,
    });
    const openai = openaiError(
      'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
    );
    expect(classify(respond(429, openai), OPENAI)).toMatchObject({
      reason: 'credits_exhausted',
      terminal: 'credits_exhausted',
    });
  });

  it("COOL-7: an unknown gateway's credit message cools the connection instead of parking it", () => {
    expect(classify(respond(402, 'insufficient balance'), UNKNOWN_GATEWAY)).toMatchObject({
      reason: 'quota_exhausted',
      terminal: null,
      scope: 'connection',
    });
  });

  it('COOL-4: an API key 429 stays a short rate limit unless its text is a long-window quota (reference §3.8 #4-6)', () => {
    const lowCredit = respond(429, openaiError('credit_balance_too_low'));
    expect(classify(lowCredit, OPENAI)).toMatchObject({ reason: 'rate_limit_exceeded', terminal: null });
    expect(classify(lowCredit, CLAUDE_OAUTH)).toMatchObject({
      reason: 'credits_exhausted',
      terminal: 'credits_exhausted',
    });
    expect(classify(respond(429, 'quota exceeded'), OPENAI)).toMatchObject({
      reason: 'quota_exhausted',
      terminal: null,
    });
    expect(classify(respond(429, 'free tier of the model has been exhausted'), CLAUDE_OAUTH).terminal).toBe(
      'credits_exhausted',
    );
  });
});
