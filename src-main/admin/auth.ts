import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Cookie the dashboard carries after opening the `?token=` link once. */
export const TOKEN_COOKIE = 'leeway_token';

/** Shortest admin token accepted; the core generates far longer random ones. */
const MIN_TOKEN_LENGTH = 16;

/** Decides whether a request presents the admin token, without leaking it through timing. */
export interface TokenCheck {
  matches(candidate: string | null | undefined): boolean;
  isAuthorized(req: IncomingMessage): boolean;
}

/** Values of every cookie called `name`; other apps on localhost share the cookie jar, so several may arrive. */
export function readCookies(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** The token from `Authorization: Bearer <token>`, if present. */
export function readBearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** `Set-Cookie` value that keeps the token out of scripts and away from other sites. */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

export function createTokenCheck(token: string): TokenCheck {
  if (token.length < MIN_TOKEN_LENGTH) throw new Error(`admin token must be at least ${MIN_TOKEN_LENGTH} characters`);
  // Hashing both sides gives equal-length buffers, so neither content nor length leaks through timing.
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  const expected = digest(token);
  const matches = (candidate: string | null | undefined): boolean =>
    typeof candidate === 'string' && candidate.length > 0 && timingSafeEqual(digest(candidate), expected);
  return {
    matches,
    isAuthorized(req) {
      if (matches(readBearer(req.headers.authorization))) return true;
      return readCookies(req.headers.cookie, TOKEN_COOKIE).some((value) => matches(value));
    },
  };
}
