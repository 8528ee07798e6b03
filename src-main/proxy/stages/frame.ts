import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import type { FailoverHop, SessionPinMark } from '../../../src-shared/domain/request-log';
import type { ModelEndpoint } from '../endpoints';
import type { ModelBody } from '../parse-model-body';
import type { KeepAlive } from '../sse-keepalive';

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
}
