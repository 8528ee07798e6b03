import type { Json, RequestTranslator } from './translate-types';
import { asArray, asNumber, asObject, asString } from './json-narrow';
import { appendContentsFromChat } from './gemini-contents-from-chat';
import { ContentsOut, functionDeclaration, toolConfigOf } from './gemini-contents-out';
import { THINKING_BUDGETS } from './messages-request-from-chat';
import { done, refuse, type Refused, type Step } from './refusal';
import { REQUEST_TEXT_JOIN } from './text-parts';

/**
 * Chat Completions request → Gemini `generateContent` request (an OpenAI client served by a Gemini
 * connection). The model and the stream go in the URL, so the body has neither. See README
 * "Gemini" for every refusal and drop.
 */
const HANDLED = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'reasoning_effort',
  'response_format',
  'n',
  'logprobs',
  'top_logprobs',
  'audio',
  'modalities',
  'functions',
  'function_call',
  'web_search_options',
]);

function refusedField(body: Json): Refused | null {
  if ((asNumber(body.n) ?? 1) > 1) return refuse('n', 'only one choice per request is translated (n > 1)');
  if (body.logprobs === true || (asNumber(body.top_logprobs) ?? 0) > 0) {
    return refuse('logprobs', 'log probabilities are not translated');
  }
  if (body.audio != null) return refuse('audio', 'audio output is not translated');
  if (asArray(body.modalities)?.some((m) => m !== 'text'))
    return refuse('modalities', 'only text output is translated');
  if (body.functions != null) return refuse('functions', 'legacy functions are not translated; use tools');
  if (body.function_call != null)
    return refuse('function_call', 'legacy function_call is not translated; use tool_choice');
  if (body.web_search_options != null) return refuse('web_search_options', 'web search options are not translated');
  return null;
}

export const geminiRequestFromChat: RequestTranslator = (body) => {
  const refused = refusedField(body);
  if (refused) return refused;
  const dropped = new Set<string>();
  for (const key in body) if (!HANDLED.has(key)) dropped.add(key);
  const input = asArray(body.messages);
  if (!input) return refuse('messages', 'messages must be an array');
  const system: string[] = [];
  const contents = new ContentsOut();
  const refusal = appendContentsFromChat(input, dropped, system, contents);
  if (refusal) return { ok: false, refusal };

  const out: Json = { contents: contents.done() };
  if (system.length > 0) out.systemInstruction = { parts: [{ text: system.join(REQUEST_TEXT_JOIN) }] };
  const tools = functionTools(body.tools);
  if (!tools.ok) return tools;
  if (tools.value.length > 0) {
    out.tools = [{ functionDeclarations: tools.value }];
    const choice = toolConfig(body.tool_choice);
    if (!choice.ok) return choice;
    if (choice.value) out.toolConfig = choice.value;
  } else if (body.tool_choice != null) dropped.add('tool_choice');
  const generation = generationConfig(body, dropped);
  if (!generation.ok) return generation;
  if (Object.keys(generation.value).length > 0) out.generationConfig = generation.value;
  return { ok: true, body: out, dropped: [...dropped] };
};

function functionTools(value: unknown): Step<Json[]> {
  if (value == null) return done([]);
  const list = asArray(value);
  if (!list) return refuse('tools', 'tools must be an array');
  const out: Json[] = [];
  for (let i = 0; i < list.length; i++) {
    const tool = asObject(list[i]);
    if (tool?.type !== 'function')
      return refuse(`tools[${i}].type`, `tool type "${String(tool?.type)}" has no Gemini equivalent`);
    const fn = asObject(tool.function);
    const name = asString(fn?.name);
    if (!fn || !name) return refuse(`tools[${i}].function.name`, 'a function tool needs a name');
    out.push(functionDeclaration(name, asString(fn.description), asObject(fn.parameters)));
  }
  return done(out);
}

function toolConfig(choice: unknown): Step<Json | null> {
  if (choice == null) return done(null);
  if (choice === 'auto') return done(toolConfigOf('AUTO'));
  if (choice === 'required') return done(toolConfigOf('ANY'));
  if (choice === 'none') return done(toolConfigOf('NONE'));
  const name = asString(asObject(asObject(choice)?.function)?.name);
  if (asObject(choice)?.type !== 'function' || !name) {
    return refuse('tool_choice', 'tool_choice must be auto, required, none or a named function');
  }
  return done(toolConfigOf('ANY', name));
}

function generationConfig(body: Json, dropped: Set<string>): Step<Json> {
  const config: Json = {};
  const maxTokens = asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens);
  if (maxTokens !== null) config.maxOutputTokens = maxTokens;
  const copies = [
    ['temperature', 'temperature'],
    ['top_p', 'topP'],
    ['seed', 'seed'],
    ['presence_penalty', 'presencePenalty'],
    ['frequency_penalty', 'frequencyPenalty'],
  ] as const;
  for (const [from, to] of copies) {
    const value = asNumber(body[from]);
    if (value !== null) config[to] = value;
  }
  const stop = asString(body.stop);
  const stops = stop !== null ? [stop] : asArray(body.stop);
  if (stops && stops.length > 0) config.stopSequences = stops;
  const format = asObject(body.response_format);
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  else if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = asObject(asObject(format.json_schema)?.schema);
    if (schema) config.responseJsonSchema = schema;
  } else if (format && format.type !== 'text') {
    return refuse('response_format.type', `response_format "${String(format.type)}" is not translated`);
  }
  if (body.reasoning_effort != null) {
    const effort = asString(body.reasoning_effort) ?? '';
    const budget = THINKING_BUDGETS[effort];
    // Thoughts come back as reasoning_content; without includeThoughts Gemini thinks silently.
    if (budget !== undefined) config.thinkingConfig = { thinkingBudget: budget, includeThoughts: true };
    else if (effort === 'minimal' || effort === 'none') dropped.add('reasoning_effort');
    else return refuse('reasoning_effort', `reasoning_effort "${effort}" is not known`);
  }
  return done(config);
}
