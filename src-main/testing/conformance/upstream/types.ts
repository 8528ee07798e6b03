/** What the conformance upstream records: each request, the marker it carried and what it was told. */
import type { RecordedRequest } from '../../fake-upstream-types';
import type { Marker } from './markers';
import type { ThinkingBlocks } from './thinking';
import type { ToolChoice } from './tool-inputs';

/** The wire format a request path speaks (Gemini joins here when the suite serves `/v1beta`). */
export type UpstreamApi = 'anthropic' | 'chat' | 'responses';

/** The facts an answer carried that a check compares with what the client got. */
export interface SentFacts {
  text?: string;
  thinking?: ThinkingBlocks;
  /** A Responses reasoning item's `encrypted_content`. */
  reasoning?: string;
  tool?: ToolChoice;
  /** An error answer: its status and exact body. */
  error?: { status: number; body: string };
  countTokens?: number;
  usage?: { input: number; output: number };
}

export interface UpstreamExchange {
  record: RecordedRequest;
  api: UpstreamApi | null;
  marker: Marker | null;
  /** The credential the gateway used (x-api-key or Bearer), '' when none. */
  credential: string;
  sent: SentFacts;
}

export interface ConformanceUpstream {
  /** Origin, e.g. http://127.0.0.1:PORT: Anthropic base URL; OpenAI clients use `${url}/v1`. */
  readonly url: string;
  readonly port: number;
  readonly exchanges: readonly UpstreamExchange[];
  /** The exchanges of one check (its nonce), oldest first. */
  byNonce(nonce: string): UpstreamExchange[];
  close(): Promise<void>;
}
