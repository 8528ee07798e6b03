import type { ApiFormat, ConnectionKind, ConnectionSecret } from '../../src-shared/domain/connection';
import type { ProviderCapabilities } from './provider-capabilities';
import type { UpstreamSignals } from './upstream-signals';

/** Which upstream operation a request maps to; the adapter turns it into a path. */
export type UpstreamOperation =
  | 'messages'
  | 'count_tokens'
  | 'chat_completions'
  | 'responses'
  | 'models'
  /** Google's `models/{model}:generateContent` and `:streamGenerateContent?alt=sse` (issue 23). */
  | 'generate_content'
  | 'stream_generate_content';

/** How one upstream kind authenticates and where its endpoints live. */
export interface ProviderAdapter {
  readonly kind: ConnectionKind;
  readonly format: ApiFormat;
  /** Path appended to the base URL (whose own path prefix is kept); Gemini's names the model in it. */
  pathFor(operation: UpstreamOperation, model?: string): string | null;
  /** Auth headers for the connection's own secret; never the client's. */
  authHeaders(secret: ConnectionSecret): Record<string, string>;
  /** Adjusts pass-through headers, e.g. adding the OAuth beta flag. */
  decorateHeaders?(headers: Record<string, string>): void;
  /** What the kind can do, for code outside `providers/` that must not compare kind names. */
  readonly capabilities: ProviderCapabilities;
  /**
   * One response's facts about the upstream (retry wait, windows), each header dialect parsed here
   * once; `body` is the error text when there is one (Gemini states its `retryDelay` there).
   */
  signals(
    status: number,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    body: string | null,
    now: number,
  ): UpstreamSignals;
}

/** A connection test's words when the kind has no models list to ask (read back by the probe's verdict). */
export const NO_MODELS_PATH = 'This connection kind has no model list to test against';
