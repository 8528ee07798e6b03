import type { Json, RequestTranslator } from './translate-types';
import { asArray, asNumber, asObject, asString } from './json-narrow';
import { appendAnthropicMessages } from './anthropic-messages-from-chat';
import { refuse, type Refused } from './refusal';
import { REQUEST_TEXT_JOIN } from './text-parts';
import { anthropicToolChoiceFromChat, anthropicToolsFromChat } from './tool-definitions';

/**
 * Chat Completions request → Anthropic Messages request (an OpenAI client served by an Anthropic
 * connection). See README "Anthropic ⇄ Chat" for every refusal, drop and addition.
 */

/** Anthropic requires max_tokens; Chat clients often leave it out. */
export const DEFAULT_MAX_TOKENS = 4096;

/** `reasoning_effort` → thinking budget; `minimal`/`none` ask for no thinking. */
export const THINKING_BUDGETS: Record<string, number> = { low: 1024, medium: 4096, high: 16384 };

const HANDLED = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'stream',
  'stream_options',
  'user',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning_effort',
  'n',
  'logprobs',
  'top_logprobs',
  'response_format',
  'audio',
  'modalities',
  'functions',
  'function_call',
  'web_search_options',
]);

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Fields whose meaning Anthropic cannot carry, checked before any work. */
function refusedField(body: Json): Refused | null {
  const n = asNumber(body.n);
  if (n !== null && n > 1) return refuse('n', 'Anthropic returns one choice per request (n > 1)');
  if (body.logprobs === true) return refuse('logprobs', 'Anthropic does not return log probabilities');
  if ((asNumber(body.top_logprobs) ?? 0) > 0)
    return refuse('top_logprobs', 'Anthropic does not return log probabilities');
  const format = asObject(body.response_format);
  if (format && format.type !== 'text') {
    return refuse('response_format.type', `response_format "${String(format.type)}" is not translated to Anthropic`);
  }
  if (isSet(body.audio)) return refuse('audio', 'Anthropic has no audio output');
  const modalities = asArray(body.modalities);
  if (modalities?.some((m) => m !== 'text')) return refuse('modalities', 'Anthropic answers with text only');
  if (isSet(body.functions)) return refuse('functions', 'legacy functions are not translated; use tools');
  if (isSet(body.function_call))
    return refuse('function_call', 'legacy function_call is not translated; use tool_choice');
  if (isSet(body.web_search_options)) return refuse('web_search_options', 'web search options are not translated');
  return null;
}

export const messagesRequestFromChat: RequestTranslator = (body, options) => {
  const refused = refusedField(body);
  if (refused) return refused;
  const dropped = new Set<string>();
  for (const key in body) if (!HANDLED.has(key)) dropped.add(key);
  const input = asArray(body.messages);
  if (!input) return refuse('messages', 'messages must be an array');

  const system: string[] = [];
  const messages: Json[] = [];
  const refusal = appendAnthropicMessages(input, dropped, system, messages);
  if (refusal) return { ok: false, refusal };

  const out: Json = { model: options.model, messages };
  if (system.length > 0) out.system = system.join(REQUEST_TEXT_JOIN);
  let maxTokens = asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens) ?? DEFAULT_MAX_TOKENS;
  const temperature = asNumber(body.temperature);
  const topP = asNumber(body.top_p);
  const stop = asString(body.stop);
  const stops = stop !== null ? [stop] : asArray(body.stop);
  if (stops && stops.length > 0) out.stop_sequences = stops;
  if (body.stream === true) out.stream = true;
  const user = asString(body.user);
  if (user !== null) out.metadata = { user_id: user };
  if (body.tools !== undefined && body.tools !== null) {
    const tools = anthropicToolsFromChat(body.tools, dropped);
    if (!tools.ok) return tools;
    if (tools.value.length > 0) out.tools = tools.value;
  }
  const choice = anthropicToolChoiceFromChat(body.tool_choice, body.parallel_tool_calls);
  if (!choice.ok) return choice;
  if (choice.value && out.tools !== undefined) out.tool_choice = choice.value;
  else if (choice.value) dropped.add('tool_choice'); // Anthropic refuses a tool_choice without tools.

  let thinking = false;
  if (isSet(body.reasoning_effort)) {
    const effort = asString(body.reasoning_effort) ?? '';
    const budget = THINKING_BUDGETS[effort];
    const forcedTool = choice.value?.type === 'any' || choice.value?.type === 'tool';
    if (budget !== undefined && forcedTool) {
      // Anthropic refuses thinking with a forced tool; the forced tool is the stronger ask.
      dropped.add('reasoning_effort');
    } else if (budget !== undefined) {
      thinking = true;
      out.thinking = { type: 'enabled', budget_tokens: budget };
      // max_tokens counts thinking too and must exceed the budget.
      if (maxTokens <= budget) maxTokens += budget;
    } else if (effort !== 'minimal' && effort !== 'none') {
      return refuse('reasoning_effort', `reasoning_effort "${effort}" is not known`);
    }
  }
  out.max_tokens = maxTokens;
  // With thinking on, Anthropic accepts no temperature and only top_p ≥ 0.95: drop both rather than fail.
  if (temperature !== null) {
    if (thinking) dropped.add('temperature');
    else out.temperature = temperature;
  }
  if (topP !== null) {
    if (thinking) dropped.add('top_p');
    else out.top_p = topP;
  }
  return { ok: true, body: out, dropped: [...dropped] };
};
