import { describe, expect, it } from 'vitest';
import { headersThatMatter } from './attempt-journal';

describe('the headers an attempt keeps (issue 13 §3)', () => {
  it('ISSUE-13: retry hints, request ids and Anthropic/OpenAI rate-limit resets are kept, values only', () => {
    expect(
      headersThatMatter({
        'retry-after': '30',
        'retry-after-ms': '30000',
        'x-should-retry': 'true',
        'request-id': 'req_1',
        'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:30Z',
        'anthropic-ratelimit-unified-5h-reset': '1767225600',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-reset-tokens': '6m0s',
        'content-type': 'application/json',
        'anthropic-ratelimit-requests-remaining': '0',
      }),
    ).toEqual({
      'retry-after': '30',
      'retry-after-ms': '30000',
      'x-should-retry': 'true',
      'request-id': 'req_1',
      'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:30Z',
      'anthropic-ratelimit-unified-5h-reset': '1767225600',
      'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-reset-tokens': '6m0s',
    });
  });

  it('ISSUE-13: credentials and cookies are never kept, whatever an upstream echoes', () => {
    expect(
      headersThatMatter({
        authorization: 'Bearer sk-secret',
        'x-api-key': 'sk-ant-secret',
        'set-cookie': ['session=abc'],
        'proxy-authorization': 'Basic xyz',
      }),
    ).toBeNull();
  });

  it('ISSUE-13: repeated headers are joined and long values capped, so a row stays small', () => {
    const kept = headersThatMatter({ 'retry-after': ['1', '2'], 'x-request-id': 'x'.repeat(1_000) });
    expect(kept?.['retry-after']).toBe('1, 2');
    expect(kept?.['x-request-id']).toHaveLength(200);
  });
});
