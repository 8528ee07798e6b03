import { asArray, asNumber, asObject, asString } from './json-narrow';
import { chatMessagesFromInput } from './responses-input';
import { chatToolChoiceName, chatToolsFromResponses, declaredTools } from './responses-tools';
import type { Json, RequestTranslation, RequestTranslator, TranslateRefusal } from './translate-types';

/**
 * A Responses API request (`POST /v1/responses`, what the codex CLI sends) → a plain Chat
 * Completions request. Input items and tools are in `responses-input.ts` and `responses-tools.ts`;
 * this file maps the top-level fields. `background` is the request path's concern (ROUTE-3).
 */

/** Fields that would need a response store or server-side state Leeway does not keep. */
const STATEFUL: Record<string, string> = {
  previous_response_id:
    'Leeway keeps no response store: send the whole conversation in input (codex does, with store: false)',
  conversation: 'Leeway keeps no conversation store: send the whole conversation in input',
  prompt: 'stored prompt templates live on OpenAI; send the prompt in instructions and input',
};

/** Handled here, or by the request path (`background`, ROUTE-3; `stream_options`: ours replace it). */
const HANDLED = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'stream',
  'stream_options',
  'reasoning',
  'text',
  'user',
  'store',
  'include',
  'background',
]);

export const chatRequestFromResponses: RequestTranslator = (body, options) => {
  for (const [field, message] of Object.entries(STATEFUL)) {
    if (body[field] != null) return refuse(field, message);
  }
  const dropped: string[] = [];
  const messages: Json[] = [];

  if (body.instructions != null) {
    const instructions = asString(body.instructions);
    if (instructions === null) return refuse('instructions', 'instructions must be a string');
    if (instructions !== '') messages.push({ role: 'system', content: instructions });
  }
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
  } else {
    const items = asArray(body.input);
    if (!items) return refuse('input', 'input must be a string or an array of items');
    const input = chatMessagesFromInput(items, options.reasoning);
    if (!input.ok) return input;
    messages.push(...input.messages);
    dropped.push(...input.dropped);
  }

  const out: Json = { model: options.model, messages };

  const declared = declaredTools(body);
  const tools = chatToolsFromResponses(declared.tools, declared.fields);
  if (!tools.ok) return tools;
  dropped.push(...tools.dropped);
  if (tools.tools.length > 0) {
    out.tools = tools.tools;
    if (typeof body.parallel_tool_calls === 'boolean') out.parallel_tool_calls = body.parallel_tool_calls;
  }
  const choice = toolChoice(body.tool_choice, tools.tools.length > 0);
  if ('refusal' in choice) return { ok: false, refusal: choice.refusal };
  if (choice.value !== undefined) out.tool_choice = choice.value;

  const maxTokens = asNumber(body.max_output_tokens);
  if (maxTokens !== null) out.max_tokens = maxTokens;
  for (const key of ['temperature', 'top_p'] as const) {
    const value = asNumber(body[key]);
    if (value !== null) out[key] = value;
  }
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  const user = asString(body.user);
  if (user) out.user = user;

  const reasoning = asObject(body.reasoning);
  const effort = asString(reasoning?.effort);
  if (effort === 'xhigh') {
    // codex offers xhigh; Chat Completions' scale ends at high.
    out.reasoning_effort = 'high';
    dropped.push('reasoning.effort xhigh (sent as high)');
  } else if (effort) out.reasoning_effort = effort;
  if (reasoning?.summary != null || reasoning?.generate_summary != null) {
    dropped.push('reasoning.summary (chat has no reasoning summaries)');
  }

  const text = asObject(body.text);
  if (text) {
    const format = responseFormat(asObject(text.format));
    if ('refusal' in format) return { ok: false, refusal: format.refusal };
    if (format.value) out.response_format = format.value;
    if (text.verbosity != null) dropped.push('text.verbosity');
  }

  if (body.store === true) dropped.push('store (Leeway keeps no response store)');
  for (const entry of asArray(body.include) ?? []) {
    dropped.push(`include ${String(entry)} (nothing of the kind is produced)`);
  }
  for (const key of Object.keys(body)) {
    if (!HANDLED.has(key) && !(key in STATEFUL) && body[key] != null) dropped.push(key);
  }
  return { ok: true, body: out, dropped };
};

type Step<T> = { value: T } | { refusal: TranslateRefusal };

function toolChoice(choice: unknown, haveTools: boolean): Step<unknown> {
  if (choice == null) return { value: undefined };
  if (choice === 'auto' || choice === 'none') return { value: haveTools ? choice : undefined };
  if (choice === 'required') {
    if (!haveTools)
      return { refusal: { field: 'tool_choice', message: 'required, but no tool a chat model can call' } };
    return { value: choice };
  }
  const object = asObject(choice);
  const type = asString(object?.type);
  if (object && (type === 'function' || type === 'custom')) {
    const name = chatToolChoiceName(object);
    if (!name) return { refusal: { field: 'tool_choice.name', message: 'a named tool choice needs a name' } };
    return { value: { type: 'function', function: { name } } };
  }
  return {
    refusal: {
      field: 'tool_choice',
      message: `tool_choice ${JSON.stringify(choice)} has no Chat Completions equivalent`,
    },
  };
}

function responseFormat(format: Json | null): Step<Json | null> {
  const type = asString(format?.type);
  if (!format || !type || type === 'text') return { value: null };
  if (type === 'json_object') return { value: { type: 'json_object' } };
  if (type === 'json_schema') {
    const name = asString(format.name);
    const schema = asObject(format.schema);
    if (!name || !schema) {
      return { refusal: { field: 'text.format', message: 'a json_schema format needs a name and a schema' } };
    }
    const jsonSchema: Json = { name, schema };
    const description = asString(format.description);
    if (description) jsonSchema.description = description;
    if (typeof format.strict === 'boolean') jsonSchema.strict = format.strict;
    return { value: { type: 'json_schema', json_schema: jsonSchema } };
  }
  return {
    refusal: { field: 'text.format.type', message: `text format "${type}" has no Chat Completions equivalent` },
  };
}

function refuse(field: string, message: string): RequestTranslation {
  return { ok: false, refusal: { field, message } };
}
