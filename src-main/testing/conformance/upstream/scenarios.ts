/**
 * Decides the answer to one marked model request in the request's own wire format, and the facts
 * a check will compare: errors here, the rest in anthropic-decision and openai-decision.
 */
import { errorPlan, type PlanContext } from '../../fake-upstream-errors';
import { anthropicDecision } from './anthropic-decision';
import type { Decision, Request } from './answer-kit';
import type { Marker } from './markers';
import { openaiDecision } from './openai-decision';
import type { UpstreamApi } from './types';

const PATHS: Record<UpstreamApi, string> = {
  anthropic: '/v1/messages',
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
};

/** An upstream refusal in the API's own envelope, naming the check so a relayed copy is recognisable. */
export function errorBody(api: UpstreamApi, status: number, nonce: string): string {
  const message = `conformance ${nonce}: the upstream refuses this request on purpose (${status})`;
  if (api === 'anthropic') {
    const type = status === 529 ? 'overloaded_error' : 'invalid_request_error';
    return JSON.stringify({ type: 'error', error: { type, message }, request_id: `req_conformance_${nonce}` });
  }
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: 'messages', code: `conformance_${status}` } });
}

/** The answer to a model request that carries a marker. */
export function decide(ctx: PlanContext, api: UpstreamApi, req: Request, marker: Marker): Decision {
  if (marker.scenario === 'error-4xx' || marker.scenario === 'error-5xx') {
    const status = marker.scenario === 'error-4xx' ? 400 : api === 'anthropic' ? 529 : 500;
    const body = errorBody(api, status, marker.nonce);
    return { plan: errorPlan(ctx, status, '', body), sent: { error: { status, body } } };
  }
  return api === 'anthropic' ? anthropicDecision(ctx, req, marker) : openaiDecision(ctx, PATHS[api], req, marker);
}

/** The count `count_tokens` answers: distinctive per check, so a gateway's own estimate shows. */
export function countTokensFor(nonce: string, body: string): number {
  if (nonce === '') return Math.max(1, Math.ceil(body.length / 4));
  let hash = 0;
  for (const char of nonce) hash = (hash * 31 + char.charCodeAt(0)) % 9000;
  return 1000 + hash;
}
