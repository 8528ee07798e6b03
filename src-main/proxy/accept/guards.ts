import type { IncomingHttpHeaders } from 'node:http';
import type { AppError } from '../../../src-shared/contract/errors';
import { hostOf, parseHost } from './host-header';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name.endsWith('.localhost');
}

function isAllowedName(name: string, extraHosts: ReadonlySet<string>): boolean {
  // An IPv6 host the operator bound to is written bare ("fe80::1") but arrives bracketed.
  return isLoopbackName(name) || extraHosts.has(name) || (name.startsWith('[') && extraHosts.has(name.slice(1, -1)));
}

/**
 * DNS-rebinding guard: a browser tricked into resolving evil.example to 127.0.0.1 still sends
 * `Host: evil.example`, so only loopback names (or hosts the operator allowed) pass. The header is
 * read strictly (see host-header.ts): `localhost:7431@evil.example` or a second Host is refused.
 */
export function checkHost(rawHeaders: readonly string[], extraHosts: ReadonlySet<string>): AppError | null {
  const host = hostOf(rawHeaders);
  switch (host.kind) {
    case 'one':
      if (isAllowedName(host.hostname, extraHosts)) return null;
      return { code: 'forbidden_host', message: 'Host header must name a loopback host (DNS-rebinding guard)' };
    case 'missing':
      return { code: 'forbidden_host', status: 400, message: 'A Host header is required' };
    case 'duplicate':
      return { code: 'forbidden_host', status: 400, message: 'Exactly one Host header is allowed' };
    case 'malformed':
      return {
        code: 'forbidden_host',
        status: 400,
        message: 'The Host header must be a hostname with an optional port',
      };
  }
}

/**
 * Issue 21 §7: an absolute-form target (`GET http://127.0.0.1:7431/v1/models`) names the host
 * itself, and an origin server takes the host from it rather than from Host (RFC 9112 §3.2.2).
 * The same names pass as in Host; any other host is a forward-proxy request, which Leeway is not.
 */
export function checkTargetHost(authority: string, extraHosts: ReadonlySet<string>): AppError | null {
  const host = parseHost(authority);
  if (host.kind === 'one' && isAllowedName(host.hostname, extraHosts)) return null;
  return {
    code: 'forbidden_host',
    message: 'The request target names another host: Leeway is no forward proxy (send the path only)',
  };
}

/** A page on another origin must not drive the proxy; CLIs send no Origin at all. */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  try {
    const url = new URL(origin);
    if (url.protocol === 'file:') return false;
    return isLoopbackName(url.hostname.toLowerCase()) || url.hostname === '[::1]';
  } catch {
    return false;
  }
}

/**
 * The local key from `x-api-key`, `Authorization: Bearer` or `x-goog-api-key`, as Claude Code,
 * OpenAI clients and Gemini clients send it (Gemini's `?key=`: gemini-endpoints.ts).
 */
export function localKeyOf(headers: IncomingHttpHeaders): string | null {
  const apiKey = headers['x-api-key'] ?? headers['x-goog-api-key'];
  if (typeof apiKey === 'string' && apiKey.length > 0) return apiKey.trim();
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match?.[1]) return match[1].trim();
  }
  return null;
}
