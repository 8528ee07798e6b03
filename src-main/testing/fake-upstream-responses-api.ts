/**
 * The OpenAI Responses API (`POST /v1/responses`) as the fake OpenAI upstream serves it natively: a
 * `response` object, or its SSE event sequence (`response.created`, `response.in_progress`,
 * `response.output_item.added`, `response.content_part.added`, `response.output_text.delta` …,
 * `response.function_call_arguments.delta` …, `response.output_item.done`, `response.completed`),
 * each event named on its `event:` line and numbered by `sequence_number`, as OpenAI sends them.
 */
import type { PlanContext, ResponsePlan } from './fake-upstream-errors';
import { field, jsonPlan, splitOddly, ssePlan, wantsStream } from './fake-upstream-plans';
import type { FakeToolCall, RecordedRequest } from './fake-upstream-types';

/** What one answer says: optional text (already cut into deltas), then function calls. */
export interface ResponsesAnswer {
  model: string;
  text: string | null;
  deltas: readonly string[];
  calls: readonly FakeToolCall[];
  /** How many `function_call_arguments.delta` events each call's arguments are cut into. */
  fragments: number;
  input: number;
  output: number;
  /** A reasoning item before the output, its `encrypted_content` opaque (clients send it back next turn). */
  reasoning?: { id: string; summary: string; encryptedContent: string };
}

type Item = Record<string, unknown>;

/** The ids an answer uses, predictable from the fake's name and the request's seq. */
export function responseIds(ctx: PlanContext): { response: string; message: string; call: (i: number) => string } {
  const base = `${ctx.name}_${ctx.seq}`;
  return { response: `resp_${base}`, message: `msg_${base}`, call: (i) => `fc_${base}_${i}` };
}

function messageItem(id: string, text: string, done: boolean): Item {
  return {
    id,
    type: 'message',
    status: done ? 'completed' : 'in_progress',
    content: done ? [outputText(text)] : [],
    role: 'assistant',
  };
}

function outputText(text: string): Item {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function callItem(ctx: PlanContext, call: FakeToolCall, i: number, done: boolean): Item {
  return {
    id: responseIds(ctx).call(i),
    type: 'function_call',
    status: done ? 'completed' : 'in_progress',
    arguments: done ? JSON.stringify(call.input) : '',
    call_id: call.id ?? `call_${ctx.name}_${ctx.seq}_${i}`,
    name: call.name,
  };
}

function reasoningItem(reasoning: NonNullable<ResponsesAnswer['reasoning']>, done: boolean): Item {
  const summary = done ? [{ type: 'summary_text', text: reasoning.summary }] : [];
  return { id: reasoning.id, type: 'reasoning', summary, encrypted_content: reasoning.encryptedContent };
}

function outputItems(ctx: PlanContext, answer: ResponsesAnswer): Item[] {
  const reasoning = answer.reasoning === undefined ? [] : [reasoningItem(answer.reasoning, true)];
  const items: Item[] = answer.text === null ? [] : [messageItem(responseIds(ctx).message, answer.text, true)];
  return [...reasoning, ...items, ...answer.calls.map((call, i) => callItem(ctx, call, i, true))];
}

/** The `response` object; `output` and `usage` are filled only once it is complete. */
function responseObject(
  ctx: PlanContext,
  req: RecordedRequest,
  answer: ResponsesAnswer,
  createdAt: number,
  output: Item[] | null,
): Item {
  // A response echoes the request's settings, as OpenAI's does.
  const echo = (key: string, fallback: unknown): unknown => field(req.json, key) ?? fallback;
  return {
    id: responseIds(ctx).response,
    object: 'response',
    created_at: createdAt,
    status: output === null ? 'in_progress' : 'completed',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: echo('instructions', null),
    max_output_tokens: echo('max_output_tokens', null),
    model: answer.model,
    output: output ?? [],
    parallel_tool_calls: echo('parallel_tool_calls', true),
    previous_response_id: echo('previous_response_id', null),
    reasoning: { effort: null, summary: null },
    store: echo('store', true),
    temperature: echo('temperature', 1),
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: echo('tool_choice', 'auto'),
    tools: echo('tools', []),
    top_p: echo('top_p', 1),
    truncation: 'disabled',
    usage: output === null ? null : responsesUsage(answer.input, answer.output),
    user: null,
    metadata: echo('metadata', {}),
  };
}

export function responsesUsage(input: number, output: number): Item {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** A whole Responses answer: JSON, or the event stream when the request says `stream: true`. */
export function responsesApiPlan(
  ctx: PlanContext,
  req: RecordedRequest,
  answer: ResponsesAnswer,
  headers: Record<string, string>,
): ResponsePlan {
  const createdAt = Math.floor(Date.now() / 1000);
  if (!wantsStream(req))
    return jsonPlan(responseObject(ctx, req, answer, createdAt, outputItems(ctx, answer)), headers);
  return ssePlan(responsesEvents(ctx, req, answer, createdAt), headers);
}

/** The event sequence of a streamed answer, each as one SSE frame. */
export function responsesEvents(
  ctx: PlanContext,
  req: RecordedRequest,
  answer: ResponsesAnswer,
  createdAt: number,
): string[] {
  let seq = 0;
  const frames: string[] = [];
  const emit = (type: string, data: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: seq++ })}\n\n`);
  };
  const pending = responseObject(ctx, req, answer, createdAt, null);
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  let index = 0;
  if (answer.reasoning !== undefined) {
    emit('response.output_item.added', { output_index: index, item: reasoningItem(answer.reasoning, false) });
    emit('response.output_item.done', { output_index: index, item: reasoningItem(answer.reasoning, true) });
    index += 1;
  }
  if (answer.text !== null) {
    const id = responseIds(ctx).message;
    const at = { item_id: id, output_index: index, content_index: 0 };
    emit('response.output_item.added', { output_index: index, item: messageItem(id, answer.text, false) });
    emit('response.content_part.added', { ...at, part: outputText('') });
    for (const delta of answer.deltas) emit('response.output_text.delta', { ...at, delta, logprobs: [] });
    emit('response.output_text.done', { ...at, text: answer.text, logprobs: [] });
    emit('response.content_part.done', { ...at, part: outputText(answer.text) });
    emit('response.output_item.done', { output_index: index, item: messageItem(id, answer.text, true) });
    index += 1;
  }
  answer.calls.forEach((call, i) => {
    const item = callItem(ctx, call, i, true);
    const at = { item_id: item.id, output_index: index };
    emit('response.output_item.added', { output_index: index, item: callItem(ctx, call, i, false) });
    for (const delta of splitOddly(JSON.stringify(call.input), answer.fragments)) {
      emit('response.function_call_arguments.delta', { ...at, delta });
    }
    emit('response.function_call_arguments.done', { ...at, name: call.name, arguments: item.arguments });
    emit('response.output_item.done', { output_index: index, item });
    index += 1;
  });
  emit('response.completed', { response: responseObject(ctx, req, answer, createdAt, outputItems(ctx, answer)) });
  return frames;
}
