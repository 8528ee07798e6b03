import { describe, expect, it } from 'vitest';
import { parseOptions } from './options';

describe('conformance options (issue 23 §4)', () => {
  it('issue 23 §4: --url and --key name any gateway; a trailing /v1 is dropped, as Claude Code adds it', () => {
    const parsed = parseOptions(['--url', 'http://127.0.0.1:7431/v1/', '--key=lw-local-key-123']);
    expect(parsed).toMatchObject({
      ok: true,
      value: { url: 'http://127.0.0.1:7431', key: 'lw-local-key-123', self: false, timeoutMs: 60_000 },
    });
  });

  it('issue 23 §4: the key and admin token may come from LEEWAY_KEY and LEEWAY_ADMIN_TOKEN (leeway conformance passes them so)', () => {
    const parsed = parseOptions(['--url', 'http://127.0.0.1:7431'], {
      LEEWAY_KEY: 'lw-from-env-0000',
      LEEWAY_ADMIN_TOKEN: 'admin-token-from-env-0000',
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: { key: 'lw-from-env-0000', adminToken: 'admin-token-from-env-0000' },
    });
  });

  it('issue 23 §4: --self needs nothing else and takes no --url', () => {
    expect(parseOptions(['--self'])).toMatchObject({ ok: true, value: { self: true } });
    expect(parseOptions(['--self', '--url', 'http://127.0.0.1:1'])).toEqual({
      ok: false,
      error: '--self starts its own Leeway: drop --url',
    });
  });

  it('issue 23 §4: models, ports, timeouts and the check list are read; bad values are usage errors', () => {
    const parsed = parseOptions([
      '--self',
      '--upstream-port',
      '9999',
      '--anthropic-model',
      'claude-x',
      '--openai-model',
      'gpt-x',
      '--only',
      'count-tokens, head-root',
      '--timeout',
      '5',
    ]);
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        upstreamPort: 9999,
        models: { anthropic: 'claude-x', openai: 'gpt-x' },
        only: ['count-tokens', 'head-root'],
        timeoutMs: 5000,
      },
    });
    expect(parseOptions(['--url', 'http://x'])).toEqual({ ok: false, error: '--key is required with --url' });
    expect(parseOptions([])).toEqual({ ok: false, error: 'give --url (and --key), or --self' });
    expect(parseOptions(['--self', '--upstream-port', '70000'])).toMatchObject({ ok: false });
    expect(parseOptions(['--self', '--timeout', '0'])).toMatchObject({ ok: false });
    expect(parseOptions(['--url', 'ftp://x', '--key', 'k'])).toMatchObject({ ok: false });
    expect(parseOptions(['--self', '--frobnicate'])).toMatchObject({
      ok: false,
      error: expect.stringContaining('--frobnicate'),
    });
    expect(parseOptions(['--help'])).toMatchObject({ ok: true, value: { help: true } });
  });
});
