import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { anthropicErrorType, openaiErrorKind } from '../../translate/error-types';
import { readErrorMessage } from '../../translate/error-messages';
import { asObject, parseObject } from '../../translate/json-narrow';
import { anthropicTypeOf, errorBody, openaiTypeOf, type ClientFormat } from './client-errors';
import { redactSecrets } from '../../kernel/redact-secrets';
import { summarizeUpstreamText } from './upstream-text';
import { isGeminiErrorBody, restatedGeminiError } from './gemini-error-restate';
import { headerValue } from '../wire/header-value';
import { buildClientHeaders } from './upstream-headers';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';

export interface ErrorRelay {
  format: ClientFormat;
  /** The connection's name, said in a message Leeway writes itself. */
  connection: string;
  status: number;
  retryAfterMs: number | null;
  extraHeaders: Record<string, string>;
  /** The connection's credentials, removed from anything relayed. */
  secrets: readonly string[];
  /**
   * Leeway's word on when any target serves again (issue 21 §11), added to the upstream's message;
   * its Retry-After then replaces the upstream's, which spoke for one connection only.
   */
  reset?: { note: string; retryAfterMs: number; shouldRetry: boolean } | undefined;
}

/**
 * Relays an upstream error answer the proxy already read, always in the client's own error format:
 * a JSON body already in that format goes as is (secrets redacted), anything else (HTML pages,
 * plain text, another dialect) is wrapped with its text inside the message. The upstream's status
 * (or the restated one) and headers such as request-id stay; Retry-After is added when we know it.
 */
export function relayErrorResponse(
  res: ServerResponse,
  upstream: UpstreamAnswer,
  body: Buffer,
  relay: ErrorRelay,
): void {
  const headers = buildClientHeaders(upstream.headers, relay.extraHeaders, relay.secrets);
  const text = body.toString('utf8');
  const redacted = redactSecrets(text, relay.secrets);
  let out: Buffer;
  if (isClientErrorBody(relay.format, redacted)) {
    const noted = relay.reset ? withNote(redacted, relay.reset.note) : null;
    out = noted !== null ? Buffer.from(noted, 'utf8') : redacted === text ? body : Buffer.from(redacted, 'utf8');
  } else {
    // Another dialect's error keeps its words and its kind in the client's envelope (issue 21 §6);
    // anything else (HTML, plain text) is summed up in a message of Leeway's.
    const restated = restatedErrorBody(relay.format, redacted, relay.status, relay.connection, relay.reset?.note);
    if (restated !== null) out = Buffer.from(JSON.stringify(restated), 'utf8');
    else {
      const summary = summarizeUpstreamText(redacted, headerValue(upstream.headers['content-type']));
      const note = relay.reset ? ` ${relay.reset.note}` : '';
      const message = `${relay.connection} answered ${upstream.statusCode}: ${summary}${note}`;
      out = Buffer.from(
        JSON.stringify(errorBody(relay.format, { code: 'upstream_error', status: relay.status, message })),
        'utf8',
      );
    }
    // The body is Leeway's now: the upstream's encoding and validators no longer describe it.
    for (const name of ['content-encoding', 'etag', 'last-modified']) delete headers[name];
  }
  setJsonHeaders(headers, out.length);
  if (relay.reset) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(relay.reset.retryAfterMs / 1000)));
    if (!relay.reset.shouldRetry) headers['x-should-retry'] = 'false';
  } else if (headers['retry-after'] === undefined && relay.retryAfterMs !== null && relay.retryAfterMs > 0) {
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
  if (format === 'gemini') return isGeminiErrorBody(value);
  // Anthropic's envelope says `type: "error"` at the top; OpenAI's has no top-level type.
  return format === 'openai'
    ? value.type === undefined && typeof value.error.type === 'string'
    : value.type === 'error' && typeof value.error.type === 'string';
}

/**
 * A JSON error of another dialect (or a loose gateway shape) in the client's envelope: the
 * upstream's message as it was, its kind mapped across vocabularies (translate/error-types.ts),
 * the status deciding when the kind says nothing. Null when the body is no JSON error.
 */
function restatedErrorBody(
  format: ClientFormat,
  text: string,
  status: number,
  connection: string,
  note: string | undefined,
): Record<string, unknown> | null {
  const value = text.trimStart().startsWith('{') ? parseObject(text) : null;
  if (value === null) return null;
  const read = readErrorMessage(text);
  if (read === null) return null;
  const said = note === undefined ? read : { ...read, message: `${read.message} ${note}` };
  const leeway = { code: 'upstream_error', connection };
  const gemini = restatedGeminiError(format, value, text, status);
  if (gemini !== null) {
    const error = asObject(gemini.error);
    if (error && note !== undefined) error.message = `${String(error.message)} ${note}`;
    return { ...gemini, leeway };
  }
  const anthropicDialect = value.type === 'error';
  if (format === 'anthropic') {
    const mapped = anthropicErrorType(said.type, said.code);
    const type = mapped === 'api_error' ? anthropicTypeOf(status) : mapped;
    return { type: 'error', error: { type, message: said.message }, leeway };
  }
  const kind = anthropicDialect ? openaiErrorKind(said.type) : null;
  const type = kind?.type ?? (said.type === 'api_error' ? openaiTypeOf(status) : said.type);
  const code = kind?.code ?? said.code ?? type;
  return { error: { message: said.message, type, code, param: null }, leeway };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The client-format error body with Leeway's note after the upstream's message; null when it has none to extend. */
function withNote(text: string, note: string): string | null {
  const value = parseObject(text);
  const error = value === null || !isObject(value.error) ? null : value.error;
  if (value === null || error === null || typeof error.message !== 'string') return null;
  return JSON.stringify({ ...value, error: { ...error, message: `${error.message} ${note}` } });
}
