import { describe, expect, it } from 'vitest';
import { createTokenCheck, readBearer, readCookies, tokenCookie } from './auth';

const TOKEN = 'a-very-long-admin-token-1234567890';

describe('admin token check', () => {
  it('PROD-18 matches only the exact token, whatever the candidate length', () => {
    const check = createTokenCheck(TOKEN);
    expect(check.matches(TOKEN)).toBe(true);
    expect(check.matches(TOKEN + 'x')).toBe(false);
    expect(check.matches(TOKEN.slice(0, -1))).toBe(false);
    expect(check.matches('')).toBe(false);
    expect(check.matches(null)).toBe(false);
    expect(check.matches(undefined)).toBe(false);
  });

  it('PROD-18 refuses to run with a short admin token', () => {
    expect(() => createTokenCheck('short')).toThrow(/at least 16/);
  });

  it('PROD-9 reads every same-named cookie, since other localhost apps share the jar', () => {
    expect(readCookies('a=1; headroom_token=x; b=2; headroom_token=y', 'headroom_token')).toEqual(['x', 'y']);
    expect(readCookies(undefined, 'headroom_token')).toEqual([]);
    expect(readCookies('headroom_tokenx=1', 'headroom_token')).toEqual([]);
  });

  it('PROD-9 reads a Bearer token case-insensitively and nothing else', () => {
    expect(readBearer(`bearer ${TOKEN}`)).toBe(TOKEN);
    expect(readBearer(`Basic ${TOKEN}`)).toBeNull();
    expect(readBearer(undefined)).toBeNull();
  });

  it('PROD-18 builds an HttpOnly, SameSite=Strict cookie for the whole origin', () => {
    expect(tokenCookie(TOKEN)).toBe(`headroom_token=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
  });
});
