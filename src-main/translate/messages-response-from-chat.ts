import type { Json, ResponseTranslator } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { firstChoice, matchedStopOf, reasoningOf, requestStopSequences } from './chat-fields';
import { messageIdFromChat, toolCallIdFor } from './ids';
import { messagesStopFromChat } from './stop-reasons';
import { messagesUsageFromChat } from './usage-map';

/**
 * A whole Chat completion → an Anthropic message. Reasoning leads as a `thinking` block with an
 * empty signature (there is none to give); tool call ids are kept as they are so the client's
 * tool_result finds its call when the conversation comes back through Leeway.
 */
export const messagesResponseFromChat: ResponseTranslator = (body, context) => {
  const choice = firstChoice(body);
  const message = asObject(choice?.message);
  const content: Json[] = [];
  const reasoning = reasoningOf(message);
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const text = answerText(message);
  if (text) content.push({ type: 'text', text });
  const calls = asArray(message?.tool_calls) ?? [];
  for (let k = 0; k < calls.length; k++) {
    const call = asObject(calls[k]);
    const fn = asObject(call?.function);
    content.push({
      type: 'tool_use',
      id: asString(call?.id) ?? toolCallIdFor(context.idSeed, k),
      name: asString(fn?.name) ?? '',
      input: parseInput(fn?.arguments),
    });
  }
  const stop = messagesStopFromChat(
    asString(choice?.finish_reason),
    calls.length > 0,
    matchedStopOf(choice),
    requestStopSequences(context.request),
  );
  return {
    id: messageIdFromChat(body.id, context.idSeed),
    type: 'message',
    role: 'assistant',
    model: context.clientModel,
    content,
    stop_reason: stop.stop_reason,
    stop_sequence: stop.stop_sequence,
    usage: messagesUsageFromChat(asObject(body.usage)),
  };
};

/** `content` (a string, or parts from servers that send them) plus any `refusal` text. */
function answerText(message: Json | null): string {
  if (!message) return '';
  let text = asString(message.content) ?? '';
  const parts = asArray(message.content);
  if (parts) for (const part of parts) text += asString(asObject(part)?.text) ?? '';
  const refusal = asString(message.refusal);
  return refusal ? text + refusal : text;
}

/**
 * Anthropic gives tool input as an object. Arguments that do not parse (a model cut off at
 * max_tokens) become `{}`: there is no way to hand the client a half object, and Anthropic's own
 * answer at max_tokens would hold no more.
 */
function parseInput(args: unknown): Json {
  const text = asString(args);
  if (!text) return asObject(args) ?? {};
  try {
    return asObject(JSON.parse(text)) ?? {};
  } catch {
    return {};
  }
}
