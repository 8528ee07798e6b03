import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import type { LeaseClaim } from '../../routing/leases/lease-owner-match';
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

/**
 * What every stage of one request reads: the request as accepted, what routing needs of it, its
 * budgets. Fixed once the request starts; what happens to it is the trail's (trail.ts), written by
 * the request loop alone. The keep-alive is the client's stream, shared by whoever must open it
 * early (a cooldown hold, the Claude lane) so the request is committed once.
 */
export interface RequestFrame {
  readonly request: ModelRequest;
  readonly parsed: ModelBody;
  readonly keepAlive: KeepAlive;
  readonly signal: AbortSignal;
  /** The session the client named (x-claude-code-session-id …), null when none. */
  readonly session: string | null;
  /** The exclusive lease the request presented (LEASE-6), read before anything else. */
  readonly claim: LeaseClaim | null;
  readonly headersTimeoutMs: number;
  /** An error body is read whole before deciding, so it gets a deadline of its own (no idle-limit hang). */
  readonly errorBodyTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly responseTimeoutMs: number;
  /** ROUTE-3 and the like: a warning the answer carries in `x-leeway-warning`. */
  readonly warning: string | null;
}
