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

/** Replaces each secret in upstream text with `[redacted]` before it reaches a client, a log or the UI. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, '[redacted]');
  return out;
}
