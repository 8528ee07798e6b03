/**
 * A request target in absolute-form (`http://host:port/path?query`), which clients send to a
 * forward proxy; an origin server must accept it too (RFC 9112 §3.2.2). `url` is its origin-form.
 */
export type AbsoluteTarget = { kind: 'http'; authority: string; url: string } | { kind: 'unsupported' };

const ABSOLUTE_HTTP = /^http:\/\/([^/?#]*)([^#]*)/i;

/** Splits an absolute-form target; anything but `http://…` (another scheme, `*`) is unsupported. */
export function absoluteTarget(target: string): AbsoluteTarget {
  const match = ABSOLUTE_HTTP.exec(target);
  if (!match) return { kind: 'unsupported' };
  const rest = match[2] ?? '';
  return { kind: 'http', authority: match[1] ?? '', url: rest.startsWith('/') ? rest : `/${rest}` };
}
