import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import type { FailoverHop, SessionPinMark } from '../../../src-shared/domain/request-log';
import type { ModelEndpoint } from '../accept/endpoints';
import type { ModelBody } from '../accept/parse-model-body';
import type { KeepAlive } from '../relay/sse-keepalive';

/** A model request as the accept step hands it over. */
export interface ModelRequest {
  req: IncomingMessage;
  res: ServerResponse;
  endpoint: ModelEndpoint;
  search: string;
  body: Buffer;
  key: LocalKeyView;
  startedAt: number;
}

/** What every stage of one request shares: the request, its budgets and what happened so far. */
export interface RequestFrame {
  request: ModelRequest;
  parsed: ModelBody;
  keepAlive: KeepAlive;
  signal: AbortSignal;
  headersTimeoutMs: number;
  /** An error body is read whole before deciding, so it gets a deadline of its own (no idle-limit hang). */
  errorBodyTimeoutMs: number;
  bodyTimeoutMs: number;
  responseTimeoutMs: number;
  /** Candidates tried before the one that answered. */
  hops: FailoverHop[];
  excluded: TargetExclusion[];
  /** Set by an attempt whose provider hook re-sent the request. */
  servedVia: string | null;
  /** What the session's pin did, for the activity row (set by the learn stage). */
  sessionPin: SessionPinMark | null;
  /** What the quota pre-check found (null: no pool allocates this key). */
  quota: QuotaMark | null;
  /**
   * `x-leeway-quota` for the answer (set by the learn stage); carried with Leeway's other headers
   * rather than `res.setHeader`, which would push every later `writeHead` onto Node's slow path.
   */
  quotaHeader: string | null;
  /** Set once the request waited out a cooldown (CONC-7). */
  held: HeldMark | null;
  /** `client->upstream` when the current attempt is translated (issue 12); null: same format. */
  translated: string | null;
  /** ROUTE-3 and the like: a warning the answer carries in `x-leeway-warning`. */
  warning: string | null;
  /** Time spent in connections' request queues waiting for a slot (QUEUE-1), summed over attempts. */
  queuedMs: number;
}

/** What waiting out short cooldowns did for one request, for its headers and its activity row. */
export interface HeldMark {
  waits: number;
  heldMs: number;
  /** A streaming client got 200 + keep-alives for the wait: what follows can only be SSE. */
  streamOpened: boolean;
}

/** The quota pre-check's findings, kept for the answer's header and the final refusal. */
export interface QuotaMark {
  /** Connection ids a pool covers for this key. */
  covered: ReadonlySet<string>;
  /** Connection ids whose pool penalised this key (soft policy, QPIPE-7). */
  penalized: ReadonlySet<string>;
  /** The refusal to give when quota held some candidates and nothing else could serve. */
  error: AppError | null;
}
