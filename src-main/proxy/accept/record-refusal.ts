import { statusOf, type AppError } from '../../../src-shared/contract/errors';
import type { ClientFormat } from '../relay/client-errors';
import type { ProxyContext } from '../proxy-context';

/** What Leeway knows of a request it refused itself, before or without routing. */
export interface Refusal {
  startedAt: number;
  format: ClientFormat;
  /** The endpoint's name when one matched, else the path (never the query: it may carry a secret). */
  endpoint: string;
  /** The verified local key's name; null when the key was missing or wrong — a wrong key is never stored. */
  keyName: string | null;
  error: AppError;
  /** The model, when the body was read and named one. */
  model?: string | null;
}

const MAX_PATH = 200;
const MAX_MESSAGE = 300;

/** A path fit for the log: capped, so a junk request cannot write a large row. */
export function loggedPath(pathname: string): string {
  return pathname.length > MAX_PATH ? `${pathname.slice(0, MAX_PATH)}…` : pathname;
}

/**
 * Issue 13 §3: a refused request gets an activity row like any other — its status, Leeway's
 * error code and message (the reason), no key, no body. Through the same buffered `ctx.host.record`
 * as proxied requests; nothing here touches the disk.
 */
export function recordRefusal(ctx: Pick<ProxyContext, 'host' | 'now'>, refusal: Refusal): void {
  const { error } = refusal;
  const status = statusOf(error);
  ctx.host.record({
    ts: refusal.startedAt,
    keyName: refusal.keyName,
    apiFormat: refusal.format,
    endpoint: refusal.endpoint,
    model: refusal.model ?? null,
    connection: null,
    status,
    stream: false,
    latencyMs: ctx.now() - refusal.startedAt,
    ttfbMs: null,
    inputTokens: null,
    outputTokens: null,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    failover: [],
    errorCode: error.code,
    servedVia: null,
    sessionPin: null,
    // Issue 24 §1: its decision record (no candidate met) is the one the row implies: not stored.
    errorMessage: error.message.length > MAX_MESSAGE ? `${error.message.slice(0, MAX_MESSAGE)}…` : error.message,
  });
}
