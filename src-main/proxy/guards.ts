import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostnameOf(hostHeader: string): string {
  // "[::1]:7431" keeps its brackets; "localhost:7431" loses the port.
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']');
    return end === -1 ? hostHeader : hostHeader.slice(0, end + 1);
  }
  const colon = hostHeader.lastIndexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name.endsWith('.localhost');
}

/**
 * DNS-rebinding guard: a browser tricked into resolving evil.example to 127.0.0.1 still sends
 * `Host: evil.example`, so only loopback names (or hosts the operator allowed) pass.
 */
export function isAllowedHost(hostHeader: string | undefined, extraHosts: ReadonlySet<string>): boolean {
  if (!hostHeader) return false;
  const name = hostnameOf(hostHeader.trim());
  return isLoopbackName(name) || extraHosts.has(name);
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

/** The local key from `x-api-key` or `Authorization: Bearer`, as Claude Code and OpenAI clients send it. */
export function localKeyOf(headers: IncomingHttpHeaders): string | null {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.length > 0) return apiKey.trim();
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match?.[1]) return match[1].trim();
  }
  return null;
}
