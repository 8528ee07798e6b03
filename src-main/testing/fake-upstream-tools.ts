/**
 * The `tool-call` behaviour: an answer that stops to call tools, in each wire format, whole or
 * streamed with the arguments cut into fragments at odd places (fake-upstream-types ToolCallBehaviour).
 */
import type { PlanContext, ResponsePlan } from './fake-upstream-errors';
import { estimateTokens, field, jsonPlan, splitOddly, ssePlan, wantsStream } from './fake-upstream-plans';
import { messageId, okPlan, successHeaders } from './fake-upstream-responses';
import { responsesApiPlan } from './fake-upstream-responses-api';
import type { FakeToolCall, RecordedRequest, ToolCallBehaviour } from './fake-upstream-types';
import { anthropicEvent, OPENAI_SYSTEM_FINGERPRINT, openaiEvent, openaiUsage, splitText } from './sse-frames';

export const DEFAULT_TOOL_CALL: FakeToolCall = { name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } };

/** The generated id of call `i` in a request's answer (`toolu_…` for Anthropic, `call_…` for OpenAI). */
export function toolCallId(ctx: PlanContext, i: number): string {
  return ctx.format === 'anthropic' ? `toolu_${ctx.name}_${ctx.seq}_${i}` : `call_${ctx.name}_${ctx.seq}_${i}`;
}

interface Answer {
  model: string;
  text: string | null;
  calls: { id: string; name: string; input: Record<string, unknown>; json: string }[];
  fragments: number;
  input: number;
  output: number;
}

/** The plan for a `tool-call` behaviour; endpoints that carry no message (models, count_tokens) answer as `ok`. */
export function toolCallPlan(
  ctx: PlanContext,
  req: RecordedRequest,
  pathname: string,
  behaviour: ToolCallBehaviour,
): ResponsePlan {
  const headers = { ...successHeaders(ctx), ...behaviour.headers };
  const requested = field(req.json, 'model');
  const calls = behaviour.calls ?? [DEFAULT_TOOL_CALL];
  const answer: Answer = {
    model: typeof requested === 'string' ? requested : ctx.format === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-4o',
    text: behaviour.text ?? null,
    calls: calls.map((c, i) => ({ ...c, id: c.id ?? toolCallId(ctx, i), json: JSON.stringify(c.input) })),
    fragments: behaviour.fragments ?? 4,
    input: behaviour.usage?.input ?? estimateTokens(req.body),
    output: behaviour.usage?.output ?? estimateTokens(JSON.stringify(calls)),
  };
  if (pathname === '/v1/responses') {
    const deltas = answer.text === null ? [] : splitText(answer.text, 2);
    return responsesApiPlan(ctx, req, { ...answer, deltas, calls }, headers);
  }
  if (pathname === '/v1/messages' && ctx.format === 'anthropic') {
    return wantsStream(req)
      ? ssePlan(anthropicToolFrames(ctx, answer), headers)
      : jsonPlan(anthropicMessage(ctx, answer), headers);
  }
  if (pathname === '/v1/chat/completions' && ctx.format === 'openai') {
    const created = Math.floor(Date.now() / 1000);
    const includeUsage = field(field(req.json, 'stream_options'), 'include_usage') === true;
    return wantsStream(req)
      ? ssePlan(openaiToolFrames(ctx, answer, created, includeUsage), headers)
      : jsonPlan(openaiCompletion(ctx, answer, created), headers);
  }
  return okPlan(ctx, req, pathname, { kind: 'ok', ...(behaviour.headers ? { headers: behaviour.headers } : {}) });
}

function anthropicMessage(ctx: PlanContext, answer: Answer): object {
  const text = answer.text === null ? [] : [{ type: 'text', text: answer.text }];
  return {
    id: messageId(ctx),
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content: [...text, ...answer.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: anthropicUsage(answer.input, answer.output),
  };
}

function anthropicUsage(input: number, output: number): object {
  return { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output };
}

/** message_start, an optional text block, one tool_use block per call with input_json_delta fragments, stops. */
function anthropicToolFrames(ctx: PlanContext, answer: Answer): string[] {
  const message = { ...anthropicMessage(ctx, answer), content: [], stop_reason: null };
  const frames = [
    anthropicEvent('message_start', {
      type: 'message_start',
      message: { ...message, usage: anthropicUsage(answer.input, 1) },
    }),
  ];
  let index = 0;
  const block = (start: object, deltas: object[]): void => {
    frames.push(anthropicEvent('content_block_start', { type: 'content_block_start', index, content_block: start }));
    for (const delta of deltas) {
      frames.push(anthropicEvent('content_block_delta', { type: 'content_block_delta', index, delta }));
    }
    frames.push(anthropicEvent('content_block_stop', { type: 'content_block_stop', index }));
    index += 1;
  };
  if (answer.text !== null) {
    block(
      { type: 'text', text: '' },
      splitText(answer.text, 2).map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const call of answer.calls) {
    // The real API opens every tool_use block with an empty fragment.
    const pieces = ['', ...splitOddly(call.json, answer.fragments)];
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      pieces.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  frames.push(
    anthropicEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: answer.output },
    }),
    anthropicEvent('message_stop', { type: 'message_stop' }),
  );
  return frames;
}

function openaiCompletion(ctx: PlanContext, answer: Answer, created: number): object {
  return {
    id: messageId(ctx),
    object: 'chat.completion',
    created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text,
          tool_calls: answer.calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.json },
          })),
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: openaiUsage(answer.input, answer.output),
    service_tier: 'default',
    system_fingerprint: OPENAI_SYSTEM_FINGERPRINT,
  };
}

/** Role chunk, text deltas, per call a header chunk (index, id, name) then `arguments` fragments by index, finish. */
function openaiToolFrames(ctx: PlanContext, answer: Answer, created: number, includeUsage: boolean): string[] {
  const chunk = (delta: object | null, finishReason: string | null, usage?: object): string =>
    openaiEvent({
      id: messageId(ctx),
      object: 'chat.completion.chunk',
      created,
      model: answer.model,
      system_fingerprint: OPENAI_SYSTEM_FINGERPRINT,
      choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: usage ?? null } : {}),
    });
  const frames = [chunk({ role: 'assistant', content: answer.text === null ? null : '', refusal: null }, null)];
  for (const content of answer.text === null ? [] : splitText(answer.text, 2)) frames.push(chunk({ content }, null));
  answer.calls.forEach((call, index) => {
    frames.push(
      chunk(
        { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
        null,
      ),
    );
    for (const args of splitOddly(call.json, answer.fragments)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }, null));
    }
  });
  frames.push(chunk({}, 'tool_calls'));
  if (includeUsage) frames.push(chunk(null, null, openaiUsage(answer.input, answer.output)));
  frames.push(openaiEvent('[DONE]'));
  return frames;
}
