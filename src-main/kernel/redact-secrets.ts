import type { ConnectionSecret } from '../../src-shared/domain/connection';

/** Shorter strings are not worth hunting for and would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** Every credential string a connection may have sent (or been sent back), for redaction. */
export function secretStrings(...secrets: (ConnectionSecret | null | undefined)[]): string[] {
  const out: string[] = [];
  for (const secret of secrets) {
    if (!secret) continue;
    const values = secret.type === 'api-key' ? [secret.apiKey] : [secret.accessToken, secret.refreshToken];
    for (const value of values)
      if (value !== undefined && value.length >= MIN_SECRET_LENGTH && !out.includes(value)) out.push(value);
  }
  return out;
}

/** Lists already made, per credential object: a served answer needs its list on every request. */
const listed = new WeakMap<ConnectionSecret, readonly string[]>();
const NONE: readonly string[] = [];

/**
 * `secretStrings` for the common case of one credential (the one the request carried, usually the
 * connection's own), made once per credential object rather than per request.
 */
export function secretListOf(connection: ConnectionSecret | null, sent: ConnectionSecret | null): readonly string[] {
  if (sent !== null && connection !== null && sent !== connection) return secretStrings(connection, sent);
  const secret = sent ?? connection;
  if (secret === null) return NONE;
  let list = listed.get(secret);
  if (list === undefined) {
    list = secretStrings(secret);
    listed.set(secret, list);
  }
  return list;
}

/** A header value with every secret in it replaced; the same value (no copy) when it holds none. */
export function redactHeaderValue<T extends string | string[]>(
  value: T,
  secrets: readonly string[],
): T | string | string[] {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return value.length < MIN_SECRET_LENGTH ? value : redactSecrets(value, secrets);
  return value.map((v) => redactSecrets(v, secrets));
}

/** Replaces each secret in upstream text with `[redacted]` before it reaches a client, a log or the UI. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, '[redacted]');
  return out;
}
