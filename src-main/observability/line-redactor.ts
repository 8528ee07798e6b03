import { redactSecrets, secretStrings } from '../kernel/redact-secrets';
import type { Catalog } from '../kernel/catalog';

/** A generated local key: `lw-` and 32 base62 characters; caught even when no list names it. */
const LOCAL_KEY_SHAPE = /lw-[A-Za-z0-9]{32}/g;
/** Bearer values are credentials whatever they are (a client header quoted into an error, say). */
const BEARER_VALUE = /(Bearer\s+)[^\s"\\,;]{8,}/gi;
/** As in `secretStrings`: shorter strings would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** The password of an outbound proxy URL (EGRESS), the one credential a connection keeps outside its secret. */
function proxyPassword(url: string | null): string[] {
  if (url === null) return [];
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password.length >= MIN_SECRET_LENGTH ? [password] : [];
  } catch {
    return [];
  }
}

/**
 * Redaction by construction for every log line: each configured connection secret (read from the
 * catalog, rebuilt only when the catalog object changes), every local key and token the core adds,
 * anything shaped like a local key or a Bearer value. Each secret is also matched JSON-escaped, since
 * the file holds JSON, where a quote or backslash inside a secret is escaped.
 */
export function createLineRedactor(catalog: () => Catalog | null) {
  const extra = new Set<string>();
  let dirty = true;
  let seenCatalog: Catalog | null = null;
  let secrets: string[] = [];
  const current = (): readonly string[] => {
    const now = catalog();
    if (!dirty && now === seenCatalog) return secrets;
    dirty = false;
    seenCatalog = now;
    const all = new Set<string>();
    const lists = [
      [...extra],
      ...(now?.connections ?? []).map((c) => [...secretStrings(c.secret), ...proxyPassword(c.outboundProxy)]),
    ];
    for (const list of lists)
      for (const secret of list) {
        all.add(secret);
        all.add(JSON.stringify(secret).slice(1, -1));
      }
    // Longest first, so a secret that contains another is removed whole.
    secrets = [...all].sort((a, b) => b.length - a.length);
    return secrets;
  };
  return {
    redact: (line: string): string =>
      redactSecrets(line, current()).replace(LOCAL_KEY_SHAPE, '[redacted]').replace(BEARER_VALUE, '$1[redacted]'),
    /** A secret the catalog does not hold (a local key from the config file, the admin token). */
    add(secret: string): void {
      if (secret.length < MIN_SECRET_LENGTH || extra.has(secret)) return;
      extra.add(secret);
      dirty = true;
    },
  };
}

export type LineRedactor = ReturnType<typeof createLineRedactor>;
