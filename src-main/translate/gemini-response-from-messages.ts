import type { Json, ResponseTranslator } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { callPart, geminiAnswer, wantsThoughts } from './gemini-answer';
import { geminiFinishFromMessages } from './gemini-finish';
import { responseIdFrom } from './gemini-ids';
import { envelopeOf } from './gemini-thinking-envelope';
import { geminiUsageFromMessages } from './gemini-usage';
import { countsFromMessagesUsage } from './usage-map';

/**
 * A whole Anthropic message → a Gemini `GenerateContentResponse`. Thinking becomes thought parts
 * (when the client asked `includeThoughts`); the thinking blocks before a tool_use also ride on its
 * `functionCall` part as the `thoughtSignature` (gemini-thinking-envelope.ts), so a tool loop with
 * thinking can go on. Server-tool blocks have no Gemini form and are left out.
 */
export const geminiResponseFromMessages: ResponseTranslator = (body, context) => {
  const thoughts = wantsThoughts(context.request);
  const parts: Json[] = [];
  let thinking: Json[] = [];
  for (const value of asArray(body.content) ?? []) {
    const block = asObject(value);
    if (!block) continue;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      thinking.push(block);
      const text = asString(block.thinking);
      if (thoughts && text) parts.push({ text, thought: true });
    } else if (block.type === 'text') {
      const text = asString(block.text);
      if (text) parts.push({ text });
    } else if (block.type === 'tool_use') {
      const input = asObject(block.input) ?? {};
      parts.push(callPart(asString(block.id) ?? '', asString(block.name) ?? '', input, envelopeOf(thinking)));
      thinking = [];
    }
  }
  const counts = countsFromMessagesUsage(asObject(body.usage), { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 });
  return geminiAnswer(parts, geminiFinishFromMessages(asString(body.stop_reason)), geminiUsageFromMessages(counts), {
    responseId: responseIdFrom(body.id, context.idSeed),
    modelVersion: context.clientModel,
  });
};
