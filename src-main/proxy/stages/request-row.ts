import type { NewRequestLogEntry } from '../../../src-shared/domain/request-log';
import type { ProxyContext } from '../proxy-context';
import type { Ended } from './answer';
import type { RequestFrame } from './frame';
import { servedOf } from '../../../src-shared/domain/decision';
import { decisionOf, impliedByRow } from './decision-record';
import type { RequestTrail } from './trail';

/**
 * The request's row in the activity log, made from its trail once it ended; buffered, written by
 * the core's timer. `ended` null: the client left before any answer (499 client_closed).
 */
export function recordRequest(ctx: ProxyContext, frame: RequestFrame, trail: RequestTrail, ended: Ended | null): void {
  const { request, parsed } = frame;
  const usage = ended?.outcome?.usage;
  const entry: NewRequestLogEntry = {
    ts: request.startedAt,
    keyName: request.key.name,
    apiFormat: request.endpoint.format,
    endpoint: request.endpoint.name,
    model: parsed.model,
    connection: ended?.connection ?? null,
    status: ended ? ended.status : 499,
    stream: parsed.stream,
    latencyMs: ctx.now() - request.startedAt,
    ttfbMs: ended?.outcome?.ttfbMs ?? null,
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    cacheReadTokens: usage?.cacheReadTokens ?? null,
    cacheWriteTokens: usage?.cacheWriteTokens ?? null,
    failover: trail.hops,
    errorCode: ended ? ended.errorCode : 'client_closed',
    servedVia: trail.servedVia,
    sessionPin: trail.sessionPin,
    translated: trail.translated,
    queuedMs: trail.queuedMs > 0 ? Math.round(trail.queuedMs) : null,
    upstreamModel: trail.attempts.at(-1)?.upstreamModel ?? null,
    attempts: trail.attempts,
  };
  // Issue 23 §3: only a subagent's row has them.
  if (frame.agent) {
    entry.agentId = frame.agent.agent;
    entry.parentAgentId = frame.agent.parent;
  }
  // Only a held request's row has it (no spread on every request's path).
  if (trail.held) entry.heldMs = Math.round(trail.held.heldMs);
  if (trail.cacheLost) {
    entry.cacheLostTokens = trail.cacheLost.tokens;
    entry.cacheLostUsd = trail.cacheLost.usd;
  }
  // Issue 24: a value made from the trail, serialised when the log is flushed; the common record
  // (attempts only) is rebuilt from the row on read instead.
  if (!impliedByRow(trail)) {
    const row = { connection: entry.connection, status: entry.status, failover: trail.hops, attempts: trail.attempts };
    entry.decision = decisionOf(trail, servedOf(row), entry.status, ctx.now());
  }
  ctx.host.record(entry);
}
