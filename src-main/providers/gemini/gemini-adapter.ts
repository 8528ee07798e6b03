import type { ConnectionSecret } from '../../../src-shared/domain/connection';
import type { ProviderAdapter, UpstreamOperation } from '../../kernel/provider-adapter';
import { capabilitiesOf } from '../../kernel/provider-capabilities';
import type { UpstreamSignals } from '../../kernel/upstream-signals';
import { readGeminiRateLimit } from '../../translate/gemini-rate-limit';
import { readHeaderSignals } from '../signals/read-signals';

/** Google's API version for every call; a base URL is the origin (plus any prefix a compatible server needs). */
const VERSION = '/v1beta';

/** The model as the path names it: `models/{id}` (an id already spelled `models/…` is not doubled). */
function modelPath(model: string): string {
  const id = model.startsWith('models/') ? model.slice('models/'.length) : model;
  return `${VERSION}/models/${encodeURIComponent(id)}`;
}

function geminiPath(operation: UpstreamOperation, model = ''): string | null {
  switch (operation) {
    case 'generate_content':
      return `${modelPath(model)}:generateContent`;
    case 'stream_generate_content':
      // Without alt=sse Google streams one JSON array; SSE is what every translator and the relay read.
      return `${modelPath(model)}:streamGenerateContent?alt=sse`;
    case 'models':
      return `${VERSION}/models`;
    case 'messages':
    case 'count_tokens':
    case 'chat_completions':
    case 'responses':
      return null;
  }
}

/**
 * Issue 23 §1: Google's Gemini API (or a Gemini-compatible server at another base URL). The key goes
 * in `x-goog-api-key`, never in the query; the model and the call are in the path.
 */
/**
 * Google states its wait in the error body (`google.rpc.RetryInfo.retryDelay`, issue 23 §1), not in a
 * header: read once here, after the headers, so the engines see it like any other rate limit's.
 */
function geminiSignals(
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string | null,
  now: number,
): UpstreamSignals {
  const read = readHeaderSignals(status, headers, now);
  if (read.retryAfter !== null || body === null || !body.includes('google.rpc.RetryInfo')) return read;
  const ms = readGeminiRateLimit(body)?.retryAfterMs ?? null;
  return ms !== null && ms > 0 ? { ...read, retryAfter: { ms, source: 'body' } } : read;
}

export const geminiAdapter: ProviderAdapter = {
  kind: 'gemini',
  format: 'gemini',
  capabilities: capabilitiesOf('gemini'),
  signals: geminiSignals,
  pathFor: geminiPath,
  authHeaders(secret: ConnectionSecret): Record<string, string> {
    return { 'x-goog-api-key': secret.type === 'api-key' ? secret.apiKey : secret.accessToken };
  },
};
