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
    expect(readCookies('a=1; leeway_token=x; b=2; leeway_token=y', 'leeway_token')).toEqual(['x', 'y']);
    expect(readCookies(undefined, 'leeway_token')).toEqual([]);
    expect(readCookies('leeway_tokenx=1', 'leeway_token')).toEqual([]);
  });

  it('PROD-9 reads a Bearer token case-insensitively and nothing else', () => {
    expect(readBearer(`bearer ${TOKEN}`)).toBe(TOKEN);
    expect(readBearer(`Basic ${TOKEN}`)).toBeNull();
    expect(readBearer(undefined)).toBeNull();
  });

  it('PROD-18 builds an HttpOnly, SameSite=Strict cookie for the whole origin', () => {
    expect(tokenCookie(TOKEN)).toBe(`leeway_token=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
  });
});
