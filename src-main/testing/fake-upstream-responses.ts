/**
 * Successful answers for each fake route, in the real providers' shapes: Message / chat.completion
 * JSON, their SSE streams (built by sse-frames so tests can predict the bytes), token counts, model
 * lists; Responses API answers come from fake-upstream-responses-api.
 */
import { identityHeaders, type PlanContext, type ResponsePlan } from './fake-upstream-errors';
import { modelList } from './fake-upstream-models';
import { estimateTokens, field, jsonPlan, ssePlan, wantsStream } from './fake-upstream-plans';
import { responsesApiPlan } from './fake-upstream-responses-api';
import type { OkBehaviour, RecordedRequest } from './fake-upstream-types';
import {
  anthropicStreamFrames,
  OPENAI_SYSTEM_FINGERPRINT,
  openaiStreamFrames,
  openaiUsage,
  splitText,
} from './sse-frames';

export { estimateTokens, field, wantsStream } from './fake-upstream-plans';

/** The generated message id for a request, so tests can predict stream bytes. */
export function messageId(ctx: PlanContext): string {
  return ctx.format === 'anthropic' ? `msg_${ctx.name}_${ctx.seq}` : `chatcmpl-${ctx.name}-${ctx.seq}`;
}

export function okPlan(ctx: PlanContext, req: RecordedRequest, pathname: string, ok: OkBehaviour): ResponsePlan {
  const extra = { ...successHeaders(ctx), ...ok.headers };
  if (pathname === '/v1/models') return jsonPlan(modelList(ctx), extra);
  if (pathname === '/v1/messages/count_tokens') return jsonPlan({ input_tokens: estimateTokens(req.body) }, extra);

  const fallbackModel = ctx.format === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-4o-mini';
  const requested = field(req.json, 'model');
  const model = ok.model ?? (typeof requested === 'string' ? requested : fallbackModel);
  const text = ok.text ?? `Hello from ${ctx.name}.`;
  const input = ok.usage?.input ?? estimateTokens(req.body);
  const output = ok.usage?.output ?? estimateTokens(text);
  const id = messageId(ctx);
  const deltas = splitText(text, ok.deltas ?? 3);
  if (pathname === '/v1/responses') {
    return responsesApiPlan(ctx, req, { model, text, deltas, calls: [], fragments: 1, input, output }, extra);
  }

  if (ctx.format === 'anthropic') {
    if (!wantsStream(req)) return jsonPlan(anthropicMessage(id, model, text, input, output, ok.usage), extra);
    return ssePlan(
      anthropicStreamFrames({
        id,
        model,
        deltas,
        inputTokens: input,
        outputTokens: output,
      }),
      extra,
    );
  }
  const created = Math.floor(Date.now() / 1000);
  if (!wantsStream(req)) return jsonPlan(openaiCompletion(id, model, created, text, input, output), extra);
  const includeUsage = field(field(req.json, 'stream_options'), 'include_usage') === true;
  return ssePlan(
    openaiStreamFrames({
      id,
      model,
      created,
      deltas,
      includeUsage,
      promptTokens: input,
      completionTokens: output,
    }),
    extra,
  );
}

/** Identity plus the rate-limit headers each provider sends on success. */
export function successHeaders(ctx: PlanContext): Record<string, string> {
  const headers = identityHeaders(ctx);
  if (ctx.format === 'anthropic') {
    const reset = new Date(Date.now() + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (const [kind, limit] of [
      ['requests', 4000],
      ['tokens', 2_000_000],
      ['input-tokens', 2_000_000],
      ['output-tokens', 400_000],
    ] as const) {
      headers[`anthropic-ratelimit-${kind}-limit`] = String(limit);
      headers[`anthropic-ratelimit-${kind}-remaining`] = String(limit - 1);
      headers[`anthropic-ratelimit-${kind}-reset`] = reset;
    }
    return headers;
  }
  headers['openai-processing-ms'] = '12';
  headers['x-ratelimit-limit-requests'] = '10000';
  headers['x-ratelimit-remaining-requests'] = '9999';
  headers['x-ratelimit-reset-requests'] = '6ms';
  headers['x-ratelimit-limit-tokens'] = '30000000';
  headers['x-ratelimit-remaining-tokens'] = '29999000';
  headers['x-ratelimit-reset-tokens'] = '2ms';
  return headers;
}

function anthropicMessage(
  id: string,
  model: string,
  text: string,
  input: number,
  output: number,
  cache?: { cacheRead?: number; cacheWrite?: number },
): object {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: input,
      cache_creation_input_tokens: cache?.cacheWrite ?? 0,
      cache_read_input_tokens: cache?.cacheRead ?? 0,
      output_tokens: output,
    },
  };
}

function openaiCompletion(
  id: string,
  model: string,
  created: number,
  text: string,
  input: number,
  output: number,
): object {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: openaiUsage(input, output),
    service_tier: 'default',
    system_fingerprint: OPENAI_SYSTEM_FINGERPRINT,
  };
}
