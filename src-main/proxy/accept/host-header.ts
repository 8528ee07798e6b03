/** The Host header, read strictly: exactly one, and nothing but a hostname and an optional port. */
export type HostHeader =
  { kind: 'one'; hostname: string } | { kind: 'missing' } | { kind: 'duplicate' } | { kind: 'malformed' };

/** reg-name or IPv4 (letters, digits, dots, hyphens), or a bracketed IPv6 literal; then `:digits`. */
const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

/** Parses one Host value; userinfo (`a@b`), paths, spaces and the like make it malformed. */
export function parseHost(value: string): HostHeader {
  const match = HOST_PATTERN.exec(value);
  const hostname = match?.[1];
  if (!match || !hostname) return { kind: 'malformed' };
  if (match[2] !== undefined && Number(match[2]) > 65_535) return { kind: 'malformed' };
  return { kind: 'one', hostname: hostname.toLowerCase() };
}

/**
 * The request's Host from its raw header list, so a duplicate is seen (Node's `headers.host`
 * silently keeps the first).
 */
export function hostOf(rawHeaders: readonly string[]): HostHeader {
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name?.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (value !== undefined) return { kind: 'duplicate' };
    value = rawHeaders[i + 1] ?? '';
  }
  return value === undefined ? { kind: 'missing' } : parseHost(value);
}
