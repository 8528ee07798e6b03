import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { errorBody, type ClientFormat } from './client-errors';
import { redactSecrets } from './redact-secrets';
import { summarizeUpstreamText } from './upstream-text';
import { headerValue } from './header-value';
import { buildClientHeaders } from './upstream-headers';

export interface ErrorRelay {
  format: ClientFormat;
  /** The connection's name, said in a message Leeway writes itself. */
  connection: string;
  status: number;
  retryAfterMs: number | null;
  extraHeaders: Record<string, string>;
  /** The connection's credentials, removed from anything relayed. */
  secrets: readonly string[];
}

/**
 * Relays an upstream error answer the proxy already read, always in the client's own error format:
 * a JSON body already in that format goes as is (secrets redacted), anything else (HTML pages,
 * plain text, another dialect) is wrapped with its text inside the message. The upstream's status
 * (or the restated one) and headers such as request-id stay; Retry-After is added when we know it.
 */
export function relayErrorResponse(
  res: ServerResponse,
  upstream: Dispatcher.ResponseData,
  body: Buffer,
  relay: ErrorRelay,
): void {
  const headers = buildClientHeaders(upstream.headers, relay.extraHeaders);
  const text = body.toString('utf8');
  const redacted = redactSecrets(text, relay.secrets);
  let out: Buffer;
  if (isClientErrorBody(relay.format, redacted)) {
    out = redacted === text ? body : Buffer.from(redacted, 'utf8');
  } else {
    const summary = summarizeUpstreamText(redacted, headerValue(upstream.headers['content-type']));
    const message = `${relay.connection} answered ${upstream.statusCode}: ${summary}`;
    out = Buffer.from(
      JSON.stringify(errorBody(relay.format, { code: 'upstream_error', status: relay.status, message })),
      'utf8',
    );
    // The body is Leeway's now: the upstream's encoding and validators no longer describe it.
    for (const name of ['content-encoding', 'etag', 'last-modified']) delete headers[name];
  }
  setJsonHeaders(headers, out.length);
  if (headers['retry-after'] === undefined && relay.retryAfterMs !== null && relay.retryAfterMs > 0) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(relay.retryAfterMs / 1000)));
  }
  res.writeHead(relay.status, headers);
  res.end(out);
}

function setJsonHeaders(headers: OutgoingHttpHeaders, length: number): void {
  const type = headers['content-type'];
  if (typeof type !== 'string' || !type.includes('json')) headers['content-type'] = 'application/json';
  headers['content-length'] = length;
}

/** Anthropic `{type:"error",error:{type,message}}` or OpenAI `{error:{message,…}}`, as the client's SDK parses it. */
function isClientErrorBody(format: ClientFormat, text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObject(value) || !isObject(value.error) || typeof value.error.message !== 'string') return false;
  return format === 'openai' || (value.type === 'error' && typeof value.error.type === 'string');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
