import { describe, expect, it } from 'vitest';
import { isErrorObject, statusOfErrorObject } from './error-body';
import { anthropicErrorType, googleStatusOf } from './error-types';
import {
  anthropicErrorFromGemini,
  geminiErrorBody,
  geminiErrorFromBody,
  geminiStreamError,
  openaiErrorFromGemini,
  readGeminiError,
} from './gemini-errors';
import { googleDurationMs, readGeminiRateLimit } from './gemini-rate-limit';
import { writeSse } from './sse-writer';

/** A real 429 of the Gemini API free tier, as Google sends it (ids shortened). */
const FREE_TIER_429 = JSON.stringify({
  error: {
    code: 429,
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10\nPlease retry in 41.562811562s.',
    status: 'RESOURCE_EXHAUSTED',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
            quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
            quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' },
            quotaValue: '10',
          },
        ],
      },
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [{ description: 'Learn more', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '41s' },
    ],
  },
});

describe("Google's error envelope (issue 23 §1)", () => {
  it('issue 23 §1: status names by HTTP status, and back to the status through error-body.ts', () => {
    const pairs: [number, string][] = [
      [400, 'INVALID_ARGUMENT'],
      [401, 'UNAUTHENTICATED'],
      [403, 'PERMISSION_DENIED'],
      [404, 'NOT_FOUND'],
      [429, 'RESOURCE_EXHAUSTED'],
      [500, 'INTERNAL'],
      [503, 'UNAVAILABLE'],
      [504, 'DEADLINE_EXCEEDED'],
    ];
    for (const [status, name] of pairs) {
      expect(googleStatusOf(status)).toBe(name);
      // A body naming only the status (no numeric code) still stands for it.
      expect(statusOfErrorObject({ error: { message: 'x', status: name } })).toBe(status);
    }
    expect(googleStatusOf(529)).toBe('UNAVAILABLE');
    expect(googleStatusOf(418)).toBe('FAILED_PRECONDITION');
    expect(googleStatusOf(507)).toBe('INTERNAL');
  });

  it('issue 23 §1: a Gemini answer is never an error object, even with an error field beside its candidates', () => {
    expect(isErrorObject(JSON.parse(FREE_TIER_429))).toBe(true);
    expect(isErrorObject({ candidates: [{ content: { parts: [{ text: 'hi' }] } }], error: { message: 'x' } })).toBe(
      false,
    );
  });

  it('issue 23 §1: Google errors in the Anthropic and OpenAI envelopes, and their types read back', () => {
    const quota = readGeminiError(JSON.parse(FREE_TIER_429));
    expect(quota?.code).toBe(429);
    if (!quota) return;
    expect(anthropicErrorFromGemini(quota)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: quota.message },
    });
    expect(openaiErrorFromGemini(quota)).toEqual({
      error: { message: quota.message, type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', param: null },
    });
    const kinds: [number, string, string][] = [
      [400, 'INVALID_ARGUMENT', 'invalid_request_error'],
      [401, 'UNAUTHENTICATED', 'authentication_error'],
      [403, 'PERMISSION_DENIED', 'permission_error'],
      [404, 'NOT_FOUND', 'not_found_error'],
      [500, 'INTERNAL', 'api_error'],
      [503, 'UNAVAILABLE', 'overloaded_error'],
      [504, 'DEADLINE_EXCEEDED', 'timeout_error'],
    ];
    for (const [code, status, type] of kinds) {
      expect(anthropicErrorFromGemini({ code, status, message: 'm', details: [] }).error).toEqual({
        type,
        message: 'm',
      });
      expect(anthropicErrorType(status, null)).toBe(type === 'api_error' ? 'api_error' : type);
    }
    expect(openaiErrorFromGemini({ code: 500, status: 'INTERNAL', message: 'm', details: [] }).error).toMatchObject({
      type: 'server_error',
      code: 'INTERNAL',
    });
  });

  it("issue 23 §1: any upstream error as a Gemini client reads it; Google's own passes verbatim with its details", () => {
    expect(geminiErrorFromBody(FREE_TIER_429, 429)).toEqual(JSON.parse(FREE_TIER_429));
    const anthropic = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(geminiErrorFromBody(anthropic, 529)).toEqual({
      error: { code: 529, message: 'Overloaded', status: 'UNAVAILABLE' },
    });
    expect(geminiErrorFromBody('<html>Bad gateway</html>', 502)).toEqual({
      error: { code: 502, message: '<html>Bad gateway</html>', status: 'UNAVAILABLE' },
    });
    expect(geminiErrorFromBody('', 500)).toEqual(geminiErrorBody(500, 'The upstream answered 500'));
  });
});

describe('the error a Gemini stream ends with (issue 23 §1)', () => {
  it('issue 23 §1: the bare envelope, written as a piece of its own after the events before it', () => {
    const events = [{ event: null, data: '{"candidates":[]}' }, ...geminiStreamError(503, 'Overloaded')];
    expect(writeSse(events)).toEqual([
      'data: {"candidates":[]}\n\n',
      '{"error":{"code":503,"message":"Overloaded","status":"UNAVAILABLE"}}',
    ]);
  });
});

describe('Gemini 429 retry delay and quota window (issue 23 §1)', () => {
  it('issue 23 §1: RetryInfo.retryDelay in milliseconds, the per-minute quota named, QuotaFailure ids kept', () => {
    expect(readGeminiRateLimit(FREE_TIER_429)).toEqual({
      retryAfterMs: 41_000,
      window: 'minute',
      quotaIds: ['GenerateRequestsPerMinutePerProjectPerModel-FreeTier'],
      reason: null,
    });
  });

  it('issue 23 §1: without RetryInfo the message`s "Please retry in" is read; a daily quota outranks a minute one', () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        message: 'Quota exceeded. Please retry in 12.5s.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [
              { quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' },
              { quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' },
            ],
          },
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMIT_EXCEEDED', metadata: {} },
        ],
      },
    });
    expect(readGeminiRateLimit(body)).toMatchObject({
      retryAfterMs: 12_500,
      window: 'day',
      reason: 'RATE_LIMIT_EXCEEDED',
    });
  });

  it('issue 23 §1: ErrorInfo quota_limit names the window; bodies that are no Google error read as null', () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'RATE_LIMIT_EXCEEDED',
            metadata: { quota_limit: 'GenerateContentInputTokensPerModelPerMinute' },
          },
        ],
      },
    });
    expect(readGeminiRateLimit(body)).toEqual({
      retryAfterMs: null,
      window: 'minute',
      quotaIds: [],
      reason: 'RATE_LIMIT_EXCEEDED',
    });
    expect(readGeminiRateLimit('not json')).toBeNull();
    expect(readGeminiRateLimit('{"type":"message"}')).toBeNull();
  });

  it('issue 23 §1: proto Durations as JSON writes them', () => {
    expect(googleDurationMs('41s')).toBe(41_000);
    expect(googleDurationMs('34.074824224s')).toBe(34_075);
    expect(googleDurationMs('0.5s')).toBe(500);
    expect(googleDurationMs('900ms')).toBe(900);
    expect(googleDurationMs('1m')).toBeNull();
    expect(googleDurationMs('')).toBeNull();
  });
});
