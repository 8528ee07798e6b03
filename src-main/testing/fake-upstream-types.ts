/** Types shared by the fake upstream server and its wire-format bodies. */

export type WireFormat = 'anthropic' | 'openai';

/** Answer normally; fields override the generated message (ignored by non-message endpoints). */
export interface OkBehaviour {
  kind: 'ok';
  text?: string;
  model?: string;
  /** `cacheRead`/`cacheWrite`: the prompt-cache tokens a non-streamed Anthropic answer reports (issue 24 §3). */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  headers?: Record<string, string>;
  /** How many text deltas a streamed answer is cut into (default 3). */
  deltas?: number;
  /** A response header whose value is the credential the request carried, as some gateways echo it. */
  echoKeyHeader?: string;
}

/** Answer with an error status; body defaults to the format's realistic error envelope. */
export interface StatusBehaviour {
  kind: 'status';
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
  /** Put the credential the request carried into the message, as some gateways do ("invalid key sk-…"). */
  echoKey?: boolean;
  /** A response header whose value is the credential the request carried. */
  echoKeyHeader?: string;
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

/**
 * A stream that keeps the connection busy without saying anything (WATCH tests): the first `after`
 * frames of a normal answer (default 0), then `heartbeats` (default 500) SSE comments (`comment`)
 * or pings (`ping`: Anthropic `event: ping`, an OpenAI chunk with empty content), then the rest of
 * the answer; `intervalMs` before every frame.
 */
export interface TrickleBehaviour {
  kind: 'trickle';
  intervalMs: number;
  after?: number;
  heartbeats?: number;
  heartbeat?: 'comment' | 'ping';
}

/** Send 200 headers and `after` frames, then an in-band error event, then end cleanly. */
export interface StreamErrorBehaviour {
  kind: 'stream-error';
  after: number;
  errorType?: string;
  /** Put the credential the request carried into the error event's message. */
  echoKey?: boolean;
}

/** Send 200 headers (SSE or JSON, as the request asked), then reset the socket before any body byte. */
export interface ResetAfterHeadersBehaviour {
  kind: 'reset-after-headers';
}

/** Send the headers of `status` (default 200) and then nothing: the body never starts. */
export interface StallAfterHeadersBehaviour {
  kind: 'stall-after-headers';
  status?: number;
}

/**
 * A 200 that is no usable answer, ended cleanly: `empty` (no body at all), `invalid-json` (a JSON
 * content type over a cut-off object), `unterminated` (the stream's first `events` frames, default
 * all but the terminal one, then a clean end without `message_stop` / `[DONE]`).
 */
export interface MalformedOkBehaviour {
  kind: 'malformed-ok';
  shape: 'empty' | 'invalid-json' | 'unterminated';
  events?: number;
}

/** One function/tool call a `tool-call` answer makes. */
export interface FakeToolCall {
  name: string;
  /** The call's arguments, sent as `input` (Anthropic) or as the JSON text of `arguments` (OpenAI). */
  input: Record<string, unknown>;
  /** Overrides the generated id (`toolu_…` / `call_…`). */
  id?: string;
}

/**
 * Answer with tool calls in the route's wire format, stopping for them (`tool_use` / `tool_calls`,
 * a Responses `function_call` item). Streamed arguments are cut into `fragments` pieces (default 4)
 * at places that split keys and values, as real upstreams do: `input_json_delta` for Anthropic,
 * `arguments` deltas by `index` for Chat Completions, `function_call_arguments.delta` for Responses.
 */
export interface ToolCallBehaviour {
  kind: 'tool-call';
  /** Default: one `get_weather` call with `{"city":"Paris","unit":"celsius"}`. */
  calls?: FakeToolCall[];
  /** Text said before the calls (a text block / `content` / a message item); none by default. */
  text?: string;
  fragments?: number;
  usage?: { input: number; output: number };
  headers?: Record<string, string>;
}

export type Behaviour =
  | OkBehaviour
  | ToolCallBehaviour
  | StatusBehaviour
  | DelayBehaviour
  | HangBehaviour
  | StreamThenDropBehaviour
  | SlowStreamBehaviour
  | TrickleBehaviour
  | StreamErrorBehaviour
  | ResetAfterHeadersBehaviour
  | StallAfterHeadersBehaviour
  | MalformedOkBehaviour;

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
