import { describe, expect, it } from 'vitest';
import { isErrorObject, statusOfErrorObject } from './error-body';

describe('error bodies of every dialect (issue 21 §1)', () => {
  const cases: [string, unknown, number][] = [
    ['Anthropic rate limit', { type: 'error', error: { type: 'rate_limit_error', message: 'x' } }, 429],
    ['Anthropic overloaded', { type: 'error', error: { type: 'overloaded_error', message: 'x' } }, 529],
    ['Anthropic invalid request', { type: 'error', error: { type: 'invalid_request_error', message: 'x' } }, 400],
    ['OpenAI rate limit', { error: { message: 'x', type: 'requests', code: 'rate_limit_exceeded' } }, 429],
    ['OpenAI quota', { error: { message: 'x', type: 'insufficient_quota', code: 'insufficient_quota' } }, 429],
    ['OpenAI bad key', { error: { message: 'x', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401],
    ['OpenRouter numeric code', { error: { message: 'Provider returned error', code: 429 } }, 429],
    ['Google-shaped status', { error: { code: 503, message: 'x', status: 'UNAVAILABLE' } }, 503],
    ['Google RESOURCE_EXHAUSTED', { error: { message: 'x', status: 'RESOURCE_EXHAUSTED' } }, 429],
    ['unknown kind', { error: { message: 'something broke' } }, 500],
    [
      'failed Responses object',
      { object: 'response', status: 'failed', error: { code: 'server_error', message: 'x' } },
      500,
    ],
  ];
  for (const [name, body, status] of cases) {
    it(`issue 21 §1: ${name} is an error object standing for ${status}`, () => {
      expect(isErrorObject(body)).toBe(true);
      expect(statusOfErrorObject(body)).toBe(status);
    });
  }

  const answers: [string, unknown][] = [
    ['a chat completion', { id: 'x', choices: [{ message: { content: 'hi' } }], error: { message: 'ignored' } }],
    ['a message', { type: 'message', content: [{ type: 'text', text: 'hi' }] }],
    ['a completed Responses object', { object: 'response', status: 'completed', error: null, output: [] }],
    ['a Responses object with an empty error', { object: 'response', status: 'completed', error: {} }],
    ['an error that is a string', { error: 'nope' }],
    ['an array', [{ error: { message: 'x' } }]],
  ];
  for (const [name, body] of answers) {
    it(`issue 21 §1: ${name} is no error object`, () => {
      expect(isErrorObject(body)).toBe(false);
    });
  }
});
