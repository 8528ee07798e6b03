import { asNumber, asObject, asString } from './json-narrow';
import { customInput, resolveTool, type ResponsesTool } from './responses-tools';
import type { Json, ResponseContext } from './translate-types';

/**
 * The Responses `response` object and its output items, shared by the whole-JSON and the stream
 * translators. Codex reads `id`, `output`, `usage`, `error` and `incomplete_details`; the request
 * fields are echoed as the real API does (other Responses clients read them).
 */

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** The parts of a response that do not change while it is produced: computed once per answer. */
export function responseEcho(context: ResponseContext): Json {
  const request = context.request;
  const reasoning = asObject(request.reasoning);
  return {
    background: false,
    instructions: asString(request.instructions),
    max_output_tokens: asNumber(request.max_output_tokens),
    model: context.clientModel,
    parallel_tool_calls: typeof request.parallel_tool_calls === 'boolean' ? request.parallel_tool_calls : true,
    previous_response_id: null,
    reasoning: { effort: asString(reasoning?.effort), summary: asString(reasoning?.summary) },
    // Nothing is stored, whatever was asked: say so.
    store: false,
    temperature: asNumber(request.temperature) ?? 1,
    text: asObject(request.text) ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools : [],
    top_p: asNumber(request.top_p) ?? 1,
    truncation: asString(request.truncation) ?? 'disabled',
    user: asString(request.user),
    metadata: asObject(request.metadata) ?? {},
  };
}

export interface ResponseParts {
  id: string;
  createdAt: number;
  status: ResponseStatus;
  output: Json[];
  usage: Json | null;
  error?: Json | null;
  incompleteReason?: string | null;
}

export function responseObject(echo: Json, parts: ResponseParts): Json {
  return {
    id: parts.id,
    object: 'response',
    created_at: parts.createdAt,
    status: parts.status,
    error: parts.error ?? null,
    incomplete_details: parts.incompleteReason ? { reason: parts.incompleteReason } : null,
    ...echo,
    output: parts.output,
    usage: parts.usage,
  };
}

export function responseId(context: ResponseContext): string {
  return `resp_${context.idSeed}`;
}

/** Ids of output items: unique within the answer (the output index), stable for the same seed. */
export function itemId(prefix: 'msg' | 'rs' | 'fc' | 'ctc', context: ResponseContext, outputIndex: number): string {
  return `${prefix}_${context.idSeed}_${outputIndex}`;
}

/** Chat finish reason → the response status and, when cut short, why (codex reports it to the user). */
export function statusOf(finishReason: string | null): { status: ResponseStatus; incompleteReason: string | null } {
  if (finishReason === 'length') return { status: 'incomplete', incompleteReason: 'max_output_tokens' };
  if (finishReason === 'content_filter') return { status: 'incomplete', incompleteReason: 'content_filter' };
  return { status: 'completed', incompleteReason: null };
}

/** Chat usage → Responses usage; null when the upstream gave none. */
export function responsesUsage(value: unknown): Json | null {
  const usage = asObject(value);
  if (!usage) return null;
  const input = asNumber(usage.prompt_tokens) ?? 0;
  const output = asNumber(usage.completion_tokens) ?? 0;
  const cached =
    asNumber(asObject(usage.prompt_tokens_details)?.cached_tokens) ?? asNumber(usage.prompt_cache_hit_tokens) ?? 0;
  const reasoning = asNumber(asObject(usage.completion_tokens_details)?.reasoning_tokens) ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: asNumber(usage.total_tokens) ?? input + output,
  };
}

export function outputTextPart(text: string): Json {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function messageItem(id: string, status: 'in_progress' | 'completed', text: string | null): Json {
  return { id, type: 'message', status, role: 'assistant', content: text === null ? [] : [outputTextPart(text)] };
}

/** Chat `reasoning_content` is raw reasoning: Responses' `reasoning_text` content (codex sends it back next turn). */
export function reasoningItem(id: string, text: string | null): Json {
  return { id, type: 'reasoning', summary: [], content: text === null ? [] : [{ type: 'reasoning_text', text }] };
}

/** A chat tool call as the output item the client declared it as (function, namespaced, or custom). */
export function toolCallItem(
  id: string,
  status: 'in_progress' | 'completed',
  tool: ResponsesTool,
  callId: string,
  argumentsText: string,
): Json {
  const item: Json =
    tool.kind === 'custom'
      ? { id, type: 'custom_tool_call', status, call_id: callId, name: tool.name, input: argumentsText }
      : { id, type: 'function_call', status, call_id: callId, name: tool.name, arguments: argumentsText };
  if (tool.namespace) item.namespace = tool.namespace;
  return item;
}

/** A finished chat tool call (`{id, function: {name, arguments}}`) → its output item. */
export function finishedToolCallItem(
  index: Map<string, ResponsesTool>,
  context: ResponseContext,
  outputIndex: number,
  call: Json,
): Json {
  const fn = asObject(call.function);
  const tool = resolveTool(index, asString(fn?.name) ?? '');
  const args = asString(fn?.arguments) ?? '';
  const callId = asString(call.id) ?? `call_${context.idSeed}_${outputIndex}`;
  const prefix = tool.kind === 'custom' ? 'ctc' : 'fc';
  return toolCallItem(
    itemId(prefix, context, outputIndex),
    'completed',
    tool,
    callId,
    tool.kind === 'custom' ? customInput(args) : args,
  );
}
