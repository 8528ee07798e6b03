import { describe, expect, it } from 'vitest';
import { createLineRedactor } from './line-redactor';
import { catalogOf, view } from './observability-fixtures.testkit';

describe('log line redactor', () => {
  const catalog = catalogOf([
    { view: view('a'), secret: { type: 'api-key', apiKey: 'sk-ant-secret-a-0000' } },
    {
      view: view('max'),
      secret: { type: 'oauth', accessToken: 'sk-ant-oat01-access-xyz', refreshToken: 'sk-ant-ort01-refresh-xyz' },
      outboundProxy: 'http://user:proxy-pass-123@10.0.0.1:3128',
    },
  ]);

  it('ISSUE-13: every connection secret (API key, OAuth tokens, outbound proxy password) is replaced', () => {
    const r = createLineRedactor(() => catalog);
    const line = 'a sk-ant-secret-a-0000 b sk-ant-oat01-access-xyz c sk-ant-ort01-refresh-xyz d proxy-pass-123';
    expect(r.redact(line)).toBe('a [redacted] b [redacted] c [redacted] d [redacted]');
  });

  it('ISSUE-13: added secrets, JSON-escaped forms, local-key shapes and Bearer values are replaced too', () => {
    const r = createLineRedactor(() => null);
    r.add('my"local\\key-123');
    const json = JSON.stringify({ msg: 'key my"local\\key-123 here' });
    expect(r.redact(json)).toBe(JSON.stringify({ msg: 'key [redacted] here' }));
    expect(r.redact(`got lw-${'A1b2'.repeat(8)} from client`)).toBe('got [redacted] from client');
    expect(r.redact('Authorization: Bearer abcdefghijkl')).toBe('Authorization: Bearer [redacted]');
    // Short strings are not hunted: they would redact ordinary words.
    r.add('short');
    expect(r.redact('a short line')).toBe('a short line');
  });

  it('ISSUE-13: a reloaded catalog is read again (a new connection secret is redacted from then on)', () => {
    let current = catalogOf([]);
    const r = createLineRedactor(() => current);
    expect(r.redact('sk-new-secret-0001')).toBe('sk-new-secret-0001');
    current = catalogOf([{ view: view('n'), secret: { type: 'api-key', apiKey: 'sk-new-secret-0001' } }]);
    expect(r.redact('sk-new-secret-0001')).toBe('[redacted]');
  });
});
