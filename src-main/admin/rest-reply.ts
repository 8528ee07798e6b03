import { statusOf, type ErrorCode, type Result } from '../../src-shared/contract/errors';
import type { Router } from '../api/router';
import type { PathParams } from './rest-match';

/** What a REST endpoint answers: a status and a JSON body (the spec's own shapes, not always a Result). */
export interface RestReply {
  status: number;
  body: unknown;
}

export type RestHandler = (router: Router, body: unknown, params: PathParams) => Promise<RestReply>;

export interface RestRoute {
  /** An HTTP method in capitals. */
  method: string;
  /** Literal segments and `:name` parameters (see rest-match). */
  path: string;
  handler: RestHandler;
}

/** A Result as a reply: the value (optionally reshaped) with 200, or the admin error shape with its status. */
export const answer = (
  result: Result<unknown>,
  shape: (value: unknown) => unknown = (v) => v,
  status = 200,
): RestReply =>
  result.ok
    ? { status, body: shape(result.value) }
    : { status: statusOf(result.error), body: { ok: false, error: result.error } };

export const refuse = (code: ErrorCode, message: string): RestReply => answer({ ok: false, error: { code, message } });

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
