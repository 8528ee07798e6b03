/**
 * Error envelopes, identity headers and request checks (route, auth, JSON) for the fake
 * upstreams, shaped like the real Anthropic and OpenAI APIs so proxy error mapping is exercised.
 */
import type { RecordedRequest, WireFormat } from './fake-upstream-types';

/** A fully decided answer: status, headers and the body pieces to write in order. */
export interface ResponsePlan {
  status: number;
  headers: Record<string, string>;
  chunks: string[];
  /** SSE answers are written chunk by chunk without content-length. */
  streaming: boolean;
}

/** Per-request facts the body builders need. */
export interface PlanContext {
  format: WireFormat;
  name: string;
  seq: number;
  models: readonly string[];
  requireAuth: boolean;
  apiKey: string | undefined;
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Anthropic's error `type` for a status; unknown 5xx read as `api_error` like the real API. */
export function anthropicErrorType(status: number): string {
  return ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** OpenAI's `{type, code}` pair for a status. */
export function openaiErrorKind(status: number): {
  type: string;
  code: string | null;
} {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

export function requestId(ctx: PlanContext): string {
  return `req_${ctx.name}_${ctx.seq}`;
}

/** Headers every answer carries: the provider's request-id header and which fake answered. */
export function identityHeaders(ctx: PlanContext): Record<string, string> {
  const idHeader = ctx.format === 'anthropic' ? 'request-id' : 'x-request-id';
  return { [idHeader]: requestId(ctx), 'x-fake-upstream': ctx.name };
}

/** A JSON error answer; `body` overrides the default envelope (a string is sent verbatim). */
export function errorPlan(
  ctx: PlanContext,
  status: number,
  message: string,
  body?: string | object,
  headers: Record<string, string> = {},
): ResponsePlan {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? errorEnvelope(ctx, status, message));
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...identityHeaders(ctx),
      ...headers,
    },
    chunks: [text],
    streaming: false,
  };
}

function errorEnvelope(ctx: PlanContext, status: number, message: string): object {
  if (ctx.format === 'anthropic') {
    return {
      type: 'error',
      error: { type: anthropicErrorType(status), message },
      request_id: requestId(ctx),
    };
  }
  return { error: { message, ...withParam(openaiErrorKind(status)) } };
}

function withParam(kind: { type: string; code: string | null }): object {
  // Key order matches OpenAI's envelope: message, type, param, code.
  return { type: kind.type, param: null, code: kind.code };
}

/** Default human message for a status, close to what each provider says. */
export function defaultErrorMessage(format: WireFormat, status: number): string {
  if (status === 429)
    return format === 'anthropic'
      ? 'Number of requests has exceeded your rate limit.'
      : 'Rate limit reached for requests.';
  if (status === 529) return 'Overloaded';
  if (status >= 500) return 'Internal server error';
  return `Request failed with status ${status}`;
}

/** The routes each format serves, keyed `METHOD pathname`. */
export const ROUTES: Record<WireFormat, readonly string[]> = {
  anthropic: ['POST /v1/messages', 'POST /v1/messages/count_tokens', 'GET /v1/models'],
  openai: ['POST /v1/chat/completions', 'POST /v1/responses', 'GET /v1/models'],
};

/** Decides a refusal before any behaviour applies: unknown route (404), bad auth (401), bad JSON (400). */
export function rejectPlan(ctx: PlanContext, req: RecordedRequest, pathname: string): ResponsePlan | null {
  if (!ROUTES[ctx.format].includes(`${req.method} ${pathname}`)) {
    const message = ctx.format === 'anthropic' ? 'Not Found' : `Invalid URL (${req.method} ${pathname})`;
    return errorPlan(ctx, 404, message);
  }
  const authProblem = checkAuth(ctx, req.headers);
  if (authProblem) return errorPlan(ctx, 401, authProblem);
  if (req.method === 'POST' && req.json === null) {
    return errorPlan(ctx, 400, 'The request body is not valid JSON.');
  }
  return null;
}

function checkAuth(ctx: PlanContext, headers: Record<string, string>): string | null {
  if (!ctx.requireAuth) return null;
  const bearer = /^Bearer\s+(.+)$/i.exec(headers['authorization'] ?? '')?.[1];
  // Anthropic accepts either header; OpenAI only Bearer.
  const key = ctx.format === 'anthropic' ? (headers['x-api-key'] ?? bearer) : bearer;
  if (key === undefined || key === '') {
    return ctx.format === 'anthropic'
      ? 'x-api-key header is required'
      : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.";
  }
  if (ctx.apiKey !== undefined && key !== ctx.apiKey) {
    return ctx.format === 'anthropic' ? 'invalid x-api-key' : 'Incorrect API key provided.';
  }
  return null;
}
