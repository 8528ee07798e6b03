import { SESSION_HEADERS, type SessionHeader } from '../../../src-shared/domain/affinity';

/** Header bag as node:http gives it (lower-case names). */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** The session key a request carries, and every session header present (to strip before upstream or logs). */
export interface SessionKeyExtraction {
  session: { value: string; header: SessionHeader } | null;
  /** Present session headers, in precedence order; empty (shared, never mutated) when none. */
  strip: readonly SessionHeader[];
}

/**
 * Longest value kept: ids are UUIDs or similar. Longer or non-printable values give no session
 * (affinity is soft: losing it costs a cold cache, never an error) but are still stripped.
 */
const MAX_SESSION_LENGTH = 256;
const NONE: readonly SessionHeader[] = [];

/** A header value usable as an id: trimmed, printable ASCII without spaces, 1–256 characters; else null. */
export function validValue(raw: string): string | null {
  const value = raw.trim();
  if (value.length === 0 || value.length > MAX_SESSION_LENGTH) return null;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return null;
  }
  return value;
}

/**
 * Reads the session key by precedence (AFF-1, AFF-7): `x-leeway-session`, `x-session-id`,
 * `x-claude-code-session-id`, `session-id`, `x-codex-session-id`, `x-omniroute-session`.
 * Allocates nothing for a request without session headers.
 */
export function extractSessionKey(headers: HeaderBag): SessionKeyExtraction {
  let session: SessionKeyExtraction['session'] = null;
  let strip: SessionHeader[] | null = null;
  for (const header of SESSION_HEADERS) {
    const raw = headers[header];
    if (raw === undefined) continue;
    (strip ??= []).push(header);
    if (session) continue;
    const value = validValue(Array.isArray(raw) ? (raw[0] ?? '') : raw);
    if (value !== null) session = { value, header };
  }
  return { session, strip: strip ?? NONE };
}

/**
 * The session key alone, by the same precedence (AFF-1, AFF-7): what the request path needs, read
 * on every request without the extraction's records.
 */
export function sessionKeyOf(headers: HeaderBag): string | null {
  for (const header of SESSION_HEADERS) {
    const raw = headers[header];
    if (raw === undefined) continue;
    const value = validValue(Array.isArray(raw) ? (raw[0] ?? '') : raw);
    if (value !== null) return value;
  }
  return null;
}
