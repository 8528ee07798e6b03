import type { RuntimeConnection } from '../kernel/catalog';
import { findRetryHint } from '../resilience/classify/retry-hints';
import type { UpstreamPools } from './upstream-pools';

/** What the one-token request met; never thrown. */
export type TestRequestOutcome =
  | { kind: 'answered'; status: number }
  /** A non-2xx answer, or a 2xx whose body is an error object; `text` is the start of the body. */
  | { kind: 'refused'; status: number; text: string; retryAfterMs: number | null }
  | { kind: 'unreachable'; code: string }
  /** The kind has no request Leeway may send on its own (a Claude subscription is for Claude Code). */
  | { kind: 'unsupported' };

const TIMEOUT_MS = 15_000;
const ERROR_TEXT_BYTES = 2_000;

/** The smallest real request of the connection's own API: one word in, one token out, not streamed. */
function requestFor(connection: RuntimeConnection, model: string): { path: string; body: string } | null {
  const messages = [{ role: 'user', content: 'hi' }];
  const { adapter } = connection;
  if (adapter.kind === 'claude-oauth') return null;
  const geminiPath = adapter.pathFor('generate_content', model);
  if (adapter.format === 'gemini' && geminiPath !== null) {
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    return { path: geminiPath, body: JSON.stringify({ contents, generationConfig: { maxOutputTokens: 1 } }) };
  }
  const messagesPath = adapter.pathFor('messages');
  if (adapter.format === 'anthropic' && messagesPath !== null)
    return { path: messagesPath, body: JSON.stringify({ model, max_tokens: 1, messages }) };
  const chatPath = adapter.pathFor('chat_completions');
  if (chatPath === null) return null;
  // OpenAI's newer models refuse `max_tokens`; OpenAI-compatible servers mostly know only it.
  const limit = adapter.kind === 'openai' ? { max_completion_tokens: 1 } : { max_tokens: 1 };
  return { path: chatPath, body: JSON.stringify({ model, ...limit, messages, stream: false }) };
}

/** A 2xx carrying `{"type":"error"}` or `{"error":…}` is a refusal in disguise (issue 21 §1). */
function isErrorBody(text: string): boolean {
  try {
    const json = JSON.parse(text) as { type?: unknown; error?: unknown } | null;
    return json !== null && typeof json === 'object' && (json.type === 'error' || json.error !== undefined);
  } catch {
    return false;
  }
}

/**
 * Issue 21 §17: "Test" proves more than the credential: a model list answers even for an account
 * whose every request is refused (rate limited, out of credit). One minimal request of the
 * connection's own API, with its own credential, through its own egress, not fed to the resilience
 * engines (a Test must not cool a connection).
 */
export async function sendTestRequest(
  pools: UpstreamPools,
  connection: RuntimeConnection,
  model: string,
  now: () => number,
): Promise<TestRequestOutcome> {
  const request = requestFor(connection, model);
  const secret = connection.secret;
  if (request === null || secret === null) return { kind: 'unsupported' };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...connection.adapter.authHeaders(secret),
  };
  if (connection.adapter.format === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  connection.adapter.decorateHeaders?.(headers);
  try {
    const res = await pools.forOrigin(connection.origin, connection.outboundProxy).request({
      method: 'POST',
      path: connection.basePath + request.path,
      headers,
      body: request.body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const text = (await res.body.text()).slice(0, ERROR_TEXT_BYTES);
    const status = res.statusCode;
    if (status >= 200 && status < 300 && !isErrorBody(text)) return { kind: 'answered', status };
    const at = now();
    const hint = findRetryHint(connection.adapter.signals(status, res.headers, text, at), status, text, at);
    return { kind: 'refused', status, text, retryAfterMs: hint?.ms ?? null };
  } catch (error) {
    return { kind: 'unreachable', code: (error as { code?: string }).code ?? 'error' };
  }
}
