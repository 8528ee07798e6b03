import { describe, expect, it } from 'vitest';
import { readErrorMessage, readErrorText, type UpstreamError } from './error-messages';
import { anthropicErrorType, openaiErrorKind } from './error-types';
import { loadCases } from './golden-fixtures.testkit';

interface ErrorCase {
  name: string;
  body: string;
  expected: UpstreamError | null;
}

describe('reading an upstream error body for the client envelope', () => {
  it.each(loadCases<ErrorCase>('error-messages.json'))('issue 12 golden: $name', (c) => {
    expect(readErrorMessage(c.body)).toEqual(c.expected);
  });

  it('issue 12: the contract reader gives just the message, null for an empty body', () => {
    expect(readErrorText('{"error":{"message":"quota","type":"insufficient_quota"}}')).toBe('quota');
    expect(readErrorText('')).toBeNull();
  });

  it('issue 12: a long plain-text body is cut to 500 characters', () => {
    expect(readErrorMessage('x'.repeat(5000))?.message).toHaveLength(500);
  });

  it('issue 12: OpenAI error codes map to Anthropic error types, the code read before the type', () => {
    expect(anthropicErrorType('requests', 'rate_limit_exceeded')).toBe('rate_limit_error');
    expect(anthropicErrorType('invalid_request_error', 'invalid_api_key')).toBe('authentication_error');
    expect(anthropicErrorType('invalid_request_error', 'context_length_exceeded')).toBe('invalid_request_error');
    expect(anthropicErrorType('invalid_request_error', 'some_new_code')).toBe('invalid_request_error');
    expect(anthropicErrorType('insufficient_quota', null)).toBe('billing_error');
    expect(anthropicErrorType('server_error', null)).toBe('api_error');
    expect(anthropicErrorType(null, null)).toBe('api_error');
  });

  it('issue 12: Anthropic error types map to OpenAI types, keeping the Anthropic type as the code', () => {
    expect(openaiErrorKind('overloaded_error')).toEqual({ type: 'server_error', code: 'overloaded_error' });
    expect(openaiErrorKind('rate_limit_error')).toEqual({ type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' });
    expect(openaiErrorKind('invalid_request_error')).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
    });
    expect(openaiErrorKind('authentication_error').type).toBe('authentication_error');
    expect(openaiErrorKind(null)).toEqual({ type: 'server_error', code: 'api_error' });
  });
});
