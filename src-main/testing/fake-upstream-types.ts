/** Types shared by the fake upstream server and its wire-format bodies. */

export type WireFormat = 'anthropic' | 'openai';

/** Answer normally; fields override the generated message (ignored by non-message endpoints). */
export interface OkBehaviour {
  kind: 'ok';
  text?: string;
  model?: string;
  usage?: { input: number; output: number };
  headers?: Record<string, string>;
  /** How many text deltas a streamed answer is cut into (default 3). */
  deltas?: number;
}

/** Answer with an error status; body defaults to the format's realistic error envelope. */
export interface StatusBehaviour {
  kind: 'status';
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
}

/** Wait before sending anything (time-to-first-byte timeouts), then behave as `then` (default ok). */
export interface DelayBehaviour {
  kind: 'delay';
  ms: number;
  then?: Behaviour;
}

/** Accept the request and never answer; released when the client leaves or the fake closes. */
export interface HangBehaviour {
  kind: 'hang';
}

/**
 * Send 200 headers and the first `events` SSE frames, then destroy the socket. A non-stream
 * request gets the headers and half its JSON body instead.
 */
export interface StreamThenDropBehaviour {
  kind: 'stream-then-drop';
  events: number;
}

/** Stream `deltas` text deltas (default 50) with `intervalMs` between every frame. */
export interface SlowStreamBehaviour {
  kind: 'slow-stream';
  intervalMs: number;
  deltas?: number;
}

/** Send 200 headers and `after` frames, then an in-band error event, then end cleanly. */
export interface StreamErrorBehaviour {
  kind: 'stream-error';
  after: number;
  errorType?: string;
}

export type Behaviour =
  | OkBehaviour
  | StatusBehaviour
  | DelayBehaviour
  | HangBehaviour
  | StreamThenDropBehaviour
  | SlowStreamBehaviour
  | StreamErrorBehaviour;

/** What the fake wrote back, byte for byte, so relay tests can compare with what the client got. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Everything written so far; for a dropped stream, only the frames that went out. */
  body: string;
  complete: boolean;
}

export interface RecordedRequest {
  /** 1-based order of arrival; also used in generated ids (`msg_<name>_<seq>`). */
  seq: number;
  method: string;
  /** Path including any query string, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: Record<string, string>;
  body: string;
  json: unknown;
  /** True when the client closed before the response finished (not when the fake dropped it). */
  aborted: boolean;
  response: RecordedResponse | null;
}

export interface FakeUpstreamOptions {
  format: WireFormat;
  name?: string;
  /** Reject requests without credentials with a 401 (default true). */
  requireAuth?: boolean;
  /** When set, only this key is accepted (as `x-api-key` or Bearer); others get a 401. */
  apiKey?: string;
  /** Model ids served by `GET /v1/models`. */
  models?: string[];
}

export interface FakeUpstream {
  readonly name: string;
  readonly format: WireFormat;
  /** Origin, e.g. `http://127.0.0.1:PORT`; OpenAI clients use `${url}/v1` as base URL. */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  readonly sockets: { opened: number; closed: number; open(): number };
  enqueue(...behaviours: Behaviour[]): void;
  setDefault(behaviour: Behaviour): void;
  waitFor(predicate: (upstream: FakeUpstream) => boolean, timeoutMs?: number): Promise<void>;
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
