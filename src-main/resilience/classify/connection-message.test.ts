import { describe, expect, it } from 'vitest';
import { classify, provider, respond } from './classify.testkit';
import { withoutUpstreamAddress } from './message';

const GATEWAY = provider('openai-compatible', 'http://10.0.0.7:8080');

describe('failure message of a named connection', () => {
  it('ISSUE-8: starts with the connection name and leaves out the upstream host and URL', () => {
    const c = classify(
      respond(429, { error: { message: 'Slow down, see http://10.0.0.7:8080/v1/limits or 10.0.0.7' } }),
      GATEWAY,
      { connection: 'a1' },
    );
    expect(c.message).toBe('a1: 429 rate_limit_exceeded: Slow down, see [upstream] or [upstream]');
    const timeout = classify({ kind: 'transport', failure: 'timeout' }, GATEWAY, { connection: 'a1' });
    expect(timeout.message).toBe('a1: timeout: the upstream did not answer in time');
  });

  it('ISSUE-8: an upstream whose host is an Object.prototype name classifies normally', () => {
    for (const host of ['constructor', '__proto__', 'tostring', 'hasownproperty']) {
      const on = provider('openai-compatible', `http://${host}:8080`);
      expect(classify(respond(429, 'busy'), on, { connection: 'lan' }).reason, host).toBe('rate_limit_exceeded');
      expect(classify(respond(403, 'no'), on).status, host).toBe(403);
    }
  });

  it('ISSUE-8: text without the address is returned as it was', () => {
    expect(withoutUpstreamAddress('a1: 500 server_error: boom', 'https://api.example.com')).toBe(
      'a1: 500 server_error: boom',
    );
    expect(withoutUpstreamAddress('x', 'not a url')).toBe('x');
  });
});
