import type { IncomingHttpHeaders, OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import type { ConnectionSecret } from '../../../src-shared/domain/connection';
import type { RuntimeConnection } from '../../kernel/catalog';
import { redactHeaderValue } from '../../kernel/redact-secrets';

/**
 * Client headers that carry meaning for the upstream API and nothing about the client's identity.
 * Everything else (auth, cookies, session and lease headers, hop-by-hop) is dropped by construction.
 */
const PASS_THROUGH = ['anthropic-version', 'anthropic-beta', 'content-type', 'accept', 'user-agent', 'x-app'] as const;
/** An OpenAI-format upstream has no use for Anthropic's headers (a translated Claude Code request carries them). */
const PASS_THROUGH_OPENAI = ['content-type', 'accept', 'user-agent'] as const;

/** Upstream request headers built from scratch for one target. */
export function buildUpstreamHeaders(
  client: IncomingHttpHeaders,
  connection: RuntimeConnection,
  secret: ConnectionSecret | null = connection.secret,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of connection.adapter.format === 'anthropic' ? PASS_THROUGH : PASS_THROUGH_OPENAI) {
    const value = client[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // for…in, not Object.entries: no [name, value] array per header on every request.
  for (const name in client) {
    const value = client[name];
    // The SDKs' x-stainless-* describe the client runtime and retry count; harmless and useful upstream.
    if (typeof value === 'string' && name.startsWith('x-stainless-')) headers[name] = value;
  }
  headers['content-type'] ??= 'application/json';
  if (secret) Object.assign(headers, connection.adapter.authHeaders(secret));
  connection.adapter.decorateHeaders?.(headers);
  return Object.assign(headers, extra);
}

const DROP_FROM_RESPONSE = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'proxy-connection',
  'proxy-authenticate',
  'upgrade',
  'te',
  'trailer',
  'set-cookie',
]);

/**
 * Upstream response headers minus hop-by-hop ones and cookies, plus Leeway's own; any connection
 * secret an upstream echoes in a header is redacted (issue 21 §5).
 */
export function buildClientHeaders(
  upstream: Record<string, string | string[] | undefined>,
  extra: Record<string, string>,
  secrets: readonly string[],
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || DROP_FROM_RESPONSE.has(name)) continue;
    headers[name] = redactHeaderValue(value, secrets);
  }
  return Object.assign(headers, extra);
}

/**
 * The same headers as `buildClientHeaders`, as the flat `[name, value, …]` list `writeHead` takes:
 * the relay of every served answer writes them once and never reads them back, so no object with
 * two dozen dynamic keys (and its dictionary backing store) is built per request. Leeway's own
 * headers win over an upstream's of the same name, as in the object form.
 */
export function clientHeaderList(
  upstream: Record<string, string | string[] | undefined>,
  extra: Record<string, string>,
  secrets: readonly string[],
): OutgoingHttpHeader[] {
  const list: OutgoingHttpHeader[] = [];
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || DROP_FROM_RESPONSE.has(name) || Object.hasOwn(extra, name)) continue;
    list.push(name, redactHeaderValue(value, secrets));
  }
  for (const name in extra) {
    const value = extra[name];
    if (value !== undefined) list.push(name, value);
  }
  return list;
}
