import type { Json, ResponseTranslator } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { completionIdFromMessages } from './ids';
import { chatFinishFromMessages } from './stop-reasons';
import { chatUsageFromCounts, countsFromMessagesUsage } from './usage-map';

/**
 * The contract gives translators no clock (they are pure), so `created` is 0 unless the wire
 * bridge stamps it; OpenAI SDKs read it as a plain number.
 */
export const CREATED_UNKNOWN = 0;

/**
 * A whole Anthropic message → a chat.completion. Text blocks join into `content`, `tool_use`
 * blocks become `tool_calls` (ids kept), thinking becomes `reasoning_content`; redacted thinking
 * and server-tool blocks have no Chat form and are left out.
 */
export const chatResponseFromMessages: ResponseTranslator = (body, context) => {
  const blocks = asArray(body.content) ?? [];
  let text: string | null = null;
  let reasoning: string | null = null;
  const toolCalls: Json[] = [];
  for (const value of blocks) {
    const block = asObject(value);
    if (block?.type === 'text') text = (text ?? '') + (asString(block.text) ?? '');
    else if (block?.type === 'thinking') reasoning = (reasoning ?? '') + (asString(block.thinking) ?? '');
    else if (block?.type === 'tool_use') {
      toolCalls.push({
        id: asString(block.id) ?? '',
        type: 'function',
        function: { name: asString(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const message: Json = {
    role: 'assistant',
    content: text ?? (toolCalls.length > 0 ? null : ''),
    refusal: null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== null) message.reasoning_content = reasoning;
  const counts = countsFromMessagesUsage(asObject(body.usage), { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 });
  return {
    id: completionIdFromMessages(body.id, context.idSeed),
    object: 'chat.completion',
    created: CREATED_UNKNOWN,
    model: context.clientModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinishFromMessages(asString(body.stop_reason)) }],
    usage: chatUsageFromCounts(counts),
  };
};
