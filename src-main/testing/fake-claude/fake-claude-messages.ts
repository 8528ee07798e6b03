/**
 * `POST /v1/messages` of the fake Claude service: bearer check, scripted steps, then the usage wall
 * and the low-priority lane as the real API behaves for a Claude subscription.
 */
import { errorPlan, type PlanContext, type ResponsePlan } from '../fake-upstream-errors';
import { okPlan } from '../fake-upstream-responses';
import { hasCurrentToken, unauthorized, type AccountState } from './fake-claude-account';
import type { FakeUsage, MessageStep, RecordedRequest, SlowStep, WallScript } from './fake-claude-types';
import { slowBusyHeaders, slowServedHeaders, usageHeaders, wallHeaders } from './unified-response-headers';

export const OAUTH_BETA = 'oauth-2025-04-20';
export const SLOW_HEADER = 'anthropic-usage-limit';

/** What the route reads and consumes; the queues are shifted in place. */
export interface MessagesState {
  account: AccountState;
  usage: FakeUsage;
  wall: WallScript | null;
  slow: SlowStep[];
  steps: MessageStep[];
  text: string | undefined;
}

/** Whether the request asked for the low-priority lane. */
export function isSlow(req: RecordedRequest): boolean {
  return req.headers[SLOW_HEADER] === 'slow';
}

function served(
  ctx: PlanContext,
  req: RecordedRequest,
  text: string | undefined,
  headers: Record<string, string>,
): ResponsePlan {
  return okPlan(ctx, req, '/v1/messages', { kind: 'ok', ...(text === undefined ? {} : { text }), headers });
}

function slowAnswer(ctx: PlanContext, req: RecordedRequest, state: MessagesState): ResponsePlan {
  const step = state.slow.shift();
  if (step === undefined) return served(ctx, req, state.text, slowServedHeaders(state.usage, state.wall, 'active'));
  if (step.kind === 'slow-status') {
    const headers = slowServedHeaders(state.usage, state.wall, step.status);
    const status = step.httpStatus ?? 200;
    return status === 200
      ? served(ctx, req, state.text, headers)
      : errorPlan(ctx, status, 'Rate limited', undefined, headers);
  }
  const headers = slowBusyHeaders(state.usage, state.wall, step);
  if (step.kind === 'slot_busy')
    return errorPlan(ctx, 429, 'All low-priority slots are busy; retry later.', undefined, headers);
  return errorPlan(ctx, 529, 'Overloaded', undefined, headers);
}

/** Decides the answer to one Messages request. */
export function messagesAnswer(ctx: PlanContext, req: RecordedRequest, state: MessagesState): ResponsePlan {
  if (!hasCurrentToken(state.account, req)) return unauthorized();
  const betas = (req.headers['anthropic-beta'] ?? '').split(',').map((b) => b.trim());
  if (!betas.includes(OAUTH_BETA)) return unauthorized('OAuth authentication is currently not supported.');
  if (req.json === null) return errorPlan(ctx, 400, 'The request body is not valid JSON.');
  const step = state.steps.shift();
  if (step?.kind === 'status')
    return errorPlan(ctx, step.status, `Request failed with status ${step.status}`, step.body, step.headers);
  if (step?.kind === 'ok')
    return served(ctx, req, step.text ?? state.text, { ...usageHeaders(state.usage, state.wall), ...step.headers });
  const wall = state.wall;
  if (wall !== null) {
    if (isSlow(req)) return slowAnswer(ctx, req, state);
    const message = "This request would exceed your account's rate limit. Please try again later.";
    return errorPlan(ctx, 429, message, undefined, wallHeaders(state.usage, wall, state.account.now()));
  }
  if (isSlow(req)) return served(ctx, req, state.text, slowServedHeaders(state.usage, null, 'not_needed'));
  return served(ctx, req, state.text, usageHeaders(state.usage, null));
}
