import type { Json, RequestTranslator } from './translate-types';
import { asArray, asNumber, asObject, asString } from './json-narrow';
import { appendChatMessages } from './chat-messages-from-anthropic';
import { refuse } from './refusal';
import { REQUEST_TEXT_JOIN, firstNonTextPart, textOfContent } from './text-parts';
import { chatToolChoiceFromAnthropic, chatToolsFromAnthropic } from './tool-definitions';

/**
 * Anthropic Messages request → Chat Completions request (an Anthropic client served by an
 * OpenAI-compatible connection). See README "Anthropic ⇄ Chat" for every refusal and drop.
 */

/** Fields whose meaning Chat Completions cannot carry: refused, never dropped. */
const REFUSED: Record<string, string> = {
  top_k: 'top_k has no Chat Completions equivalent',
  container: 'containers exist only on Anthropic (code execution)',
  mcp_servers: 'the MCP connector runs on Anthropic; an OpenAI-compatible connection cannot reach those servers',
  output_format: 'structured output formats are not translated',
};

/** Read below; anything else is dropped and named in `dropped` (service_tier, context_management…). */
const HANDLED = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'temperature',
  'top_p',
  'stop_sequences',
  'stream',
  'metadata',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
]);

export const chatRequestFromMessages: RequestTranslator = (body, options) => {
  const dropped = new Set<string>();
  for (const key in body) {
    const why = REFUSED[key];
    if (why !== undefined && body[key] !== undefined && body[key] !== null) return refuse(key, why);
    if (!HANDLED.has(key)) dropped.add(key);
  }
  const input = asArray(body.messages);
  if (!input) return refuse('messages', 'messages must be an array');

  const messages: Json[] = [];
  if (body.system !== undefined && body.system !== null) {
    const system = textOfContent(body.system, REQUEST_TEXT_JOIN);
    if (system === null) {
      return refuse(`system[${firstNonTextPart(body.system)}].type`, 'system blocks must be text');
    }
    if (Array.isArray(body.system) && body.system.some((block) => asObject(block)?.cache_control !== undefined)) {
      dropped.add('cache_control');
    }
    if (system.length > 0) messages.push({ role: 'system', content: system });
  }
  const refusal = appendChatMessages(input, { reasoning: options.reasoning, dropped }, messages);
  if (refusal) return { ok: false, refusal };

  const out: Json = { model: options.model, messages };
  const maxTokens = asNumber(body.max_tokens);
  if (maxTokens !== null) out.max_tokens = maxTokens;
  const temperature = asNumber(body.temperature);
  if (temperature !== null) out.temperature = temperature;
  const topP = asNumber(body.top_p);
  if (topP !== null) out.top_p = topP;
  const stops = asArray(body.stop_sequences);
  if (stops && stops.length > 0) out.stop = stops;
  if (body.stream === true) {
    out.stream = true;
    // Without it Chat streams carry no usage, and the Anthropic client's message_delta would say 0.
    out.stream_options = { include_usage: true };
  }
  const metadata = asObject(body.metadata);
  if (metadata) {
    const user = asString(metadata.user_id);
    if (user !== null) out.user = user;
    for (const key in metadata) if (key !== 'user_id') dropped.add(`metadata.${key}`);
  }
  if (body.tools !== undefined) {
    const tools = chatToolsFromAnthropic(body.tools, dropped);
    if (!tools.ok) return tools;
    if (tools.value.length > 0) out.tools = tools.value;
  }
  if (body.tool_choice !== undefined && out.tools === undefined) {
    dropped.add('tool_choice'); // OpenAI refuses a tool_choice without tools.
  } else if (body.tool_choice !== undefined) {
    const choice = chatToolChoiceFromAnthropic(body.tool_choice);
    if (!choice.ok) return choice;
    out.tool_choice = choice.value.tool_choice;
    if (choice.value.parallelToolCalls !== null) out.parallel_tool_calls = choice.value.parallelToolCalls;
  }
  // Chat Completions has no thinking budget: reasoning models on OpenAI-compatible servers reason
  // on their own, and each server spells its switch differently (sending one unknown is a 400).
  if (body.thinking !== undefined) dropped.add('thinking');
  const outputConfig = asObject(body.output_config);
  if (outputConfig) {
    if (outputConfig.format !== undefined && outputConfig.format !== null) {
      return refuse('output_config.format', 'structured output formats are not translated');
    }
    dropped.add('output_config');
  }
  return { ok: true, body: out, dropped: [...dropped] };
};
