/**
 * The window's Content-Security-Policy, sent as a response header on top of the renderer's own
 * meta tag: the same sources, plus what only a header can say (frame-ancestors) and nothing the
 * bundled renderer needs (no plugins, no <base>, no form posts, no eval, no inline script).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

type HeaderMap = Record<string, string | string[]>;

/** Response headers with our CSP in place of any other (header names compare case-insensitively). */
export function withCspHeader(headers: HeaderMap | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}

/** Directive name → sources, to compare two policies in tests and audits. */
export function parseCsp(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}
