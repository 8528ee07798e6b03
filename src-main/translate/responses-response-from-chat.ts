import { asArray, asNumber, asObject, asString } from './json-narrow';
import { responsesErrorOf } from './responses-error';
import {
  finishedToolCallItem,
  itemId,
  messageItem,
  reasoningItem,
  responseEcho,
  responseId,
  responseObject,
  responsesUsage,
  statusOf,
} from './responses-object';
import { declaredTools, responsesToolIndex } from './responses-tools';
import type { Json, ResponseTranslator } from './translate-types';

/**
 * A whole `chat.completion` → a Responses `response` object: output items in the order a model
 * produces them (reasoning, message, tool calls), tool calls as the kind the client declared
 * (function, namespaced function, or custom), `length` as an incomplete response.
 */
export const responsesResponseFromChat: ResponseTranslator = (body, context) => {
  const echo = responseEcho(context);
  const id = responseId(context);
  const createdAt = asNumber(body.created) ?? 0;
  const choice = asObject(asArray(body.choices)?.[0]);
  if (!choice && body.error != null) {
    const error = responsesErrorOf(body.error);
    return responseObject(echo, { id, createdAt, status: 'failed', output: [], usage: null, error: { ...error } });
  }
  const message = asObject(choice?.message) ?? {};
  const output: Json[] = [];

  const reasoning = asString(message.reasoning_content) ?? asString(message.reasoning);
  if (reasoning) output.push(reasoningItem(itemId('rs', context, output.length), reasoning));
  const text = chatText(message.content) + (asString(message.refusal) ?? '');
  if (text !== '') output.push(messageItem(itemId('msg', context, output.length), 'completed', text));
  const calls = asArray(message.tool_calls) ?? [];
  if (calls.length > 0) {
    const index = responsesToolIndex(declaredTools(context.request).tools);
    for (const call of calls) {
      const object = asObject(call);
      if (object) output.push(finishedToolCallItem(index, context, output.length, object));
    }
  }

  const { status, incompleteReason } = statusOf(asString(choice?.finish_reason));
  return responseObject(echo, {
    id,
    createdAt,
    status,
    output,
    usage: responsesUsage(body.usage),
    incompleteReason,
  });
};

/** Chat content is a string, null, or (some providers) text parts. */
function chatText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? []).map((part) => asString(asObject(part)?.text) ?? '').join('');
}
