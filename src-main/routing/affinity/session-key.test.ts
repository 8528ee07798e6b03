import { describe, expect, it } from 'vitest';
import { SESSION_HEADERS } from '../../../src-shared/domain/affinity';
import { extractSessionKey, sessionKeyOf } from './session-key';

describe('extractSessionKey', () => {
  it('AFF-7: with every session header present, x-leeway-session wins and all six are listed to strip', () => {
    const headers = Object.fromEntries(SESSION_HEADERS.map((name) => [name, `v-${name}`]));
    const out = extractSessionKey({ ...headers, 'content-type': 'application/json' });
    expect(out.session).toEqual({ value: 'v-x-leeway-session', header: 'x-leeway-session' });
    expect(out.strip).toEqual([...SESSION_HEADERS]);
  });

  it('AFF-7: the precedence is x-leeway-session, x-session-id, x-claude-code-session-id, session-id, x-codex-session-id, x-omniroute-session', () => {
    const winners: string[] = [];
    for (let i = 0; i < SESSION_HEADERS.length; i++) {
      const present = Object.fromEntries(SESSION_HEADERS.slice(i).map((name) => [name, name]));
      winners.push(extractSessionKey(present).session?.header ?? 'none');
    }
    expect(winners).toEqual([
      'x-leeway-session',
      'x-session-id',
      'x-claude-code-session-id',
      'session-id',
      'x-codex-session-id',
      'x-omniroute-session',
    ]);
  });

  it('AFF-1: Claude Code’s and codex’s own headers alone give a session key', () => {
    const uuid = '3f1c2a9e-7b4d-4c55-9a0e-1d2b3c4d5e6f';
    expect(extractSessionKey({ 'x-claude-code-session-id': uuid }).session?.value).toBe(uuid);
    expect(extractSessionKey({ 'session-id': ` ${uuid} ` }).session).toEqual({ value: uuid, header: 'session-id' });
  });

  it('AFF-5: an unusable value gives no key from that header, falls through to the next, and is still stripped', () => {
    const out = extractSessionKey({
      'x-leeway-session': 'has space',
      'x-session-id': 'ok-1',
      'x-omniroute-session': 'x'.repeat(300),
    });
    expect(out.session).toEqual({ value: 'ok-1', header: 'x-session-id' });
    expect(out.strip).toEqual(['x-leeway-session', 'x-session-id', 'x-omniroute-session']);
    expect(extractSessionKey({ 'x-session-id': '   ' })).toEqual({ session: null, strip: ['x-session-id'] });
  });

  it('AFF-1: a request without session headers has no key and nothing to strip, with a shared empty list', () => {
    const a = extractSessionKey({ 'x-api-key': 'lw-secret', 'user-agent': 'claude-cli' });
    const b = extractSessionKey({});
    expect(a).toEqual({ session: null, strip: [] });
    expect(a.strip).toBe(b.strip);
  });

  it('AFF-1: a repeated header (array value) uses its first value', () => {
    expect(extractSessionKey({ 'x-session-id': ['first', 'second'] }).session?.value).toBe('first');
  });

  it("AFF-1/AFF-7: sessionKeyOf (the request path's read) gives the same key as the extraction, header bag by header bag", () => {
    const bags: Record<string, string | string[]>[] = [
      {},
      { 'x-api-key': 'lw-secret' },
      { 'x-session-id': '   ', 'session-id': 'fallback' },
      { 'x-leeway-session': 'a'.repeat(257), 'x-codex-session-id': 'codex-1' },
      { 'x-claude-code-session-id': 'cc', 'x-leeway-session': 'mine' },
      { 'x-session-id': ['first', 'second'] },
      { 'x-omniroute-session': 'bad value' },
    ];
    for (const bag of bags) expect(sessionKeyOf(bag)).toBe(extractSessionKey(bag).session?.value ?? null);
    expect(sessionKeyOf({ 'x-claude-code-session-id': 'cc', 'x-leeway-session': 'mine' })).toBe('mine');
  });
});
