import type { Json, ResponseTranslator } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { firstChoice, reasoningOf } from './chat-fields';
import { argsOf, callPart, chatCallSignature, geminiAnswer, wantsThoughts } from './gemini-answer';
import { geminiFinishFromChat } from './gemini-finish';
import { responseIdFrom } from './gemini-ids';
import { geminiUsageFromChat } from './gemini-usage';
import { toolCallIdFor } from './ids';

/**
 * A whole chat.completion → a Gemini `GenerateContentResponse`. Parts in model order: the
 * reasoning as a thought part (only when the client asked `includeThoughts`, as Gemini does), the
 * text, then each tool call as a `functionCall` with its id (a Gemini client sends it back on the
 * functionResponse, so the result finds its call). The refusal text, if any, is text. A call's
 * `extra_content.google.thought_signature` (Google's own OpenAI-compatible endpoint) is its signature.
 */
export const geminiResponseFromChat: ResponseTranslator = (body, context) => {
  const choice = firstChoice(body);
  const message = asObject(choice?.message);
  const parts: Json[] = [];
  const reasoning = reasoningOf(message);
  if (reasoning && wantsThoughts(context.request)) parts.push({ text: reasoning, thought: true });
  const text = (asString(message?.content) ?? '') + (asString(message?.refusal) ?? '');
  if (text) parts.push({ text });
  const calls = asArray(message?.tool_calls) ?? [];
  for (let k = 0; k < calls.length; k++) {
    const call = asObject(calls[k]);
    const fn = asObject(call?.function);
    const id = asString(call?.id) ?? toolCallIdFor(context.idSeed, k);
    parts.push(callPart(id, asString(fn?.name) ?? '', argsOf(fn?.arguments), chatCallSignature(call)));
  }
  const finish = geminiFinishFromChat(asString(choice?.finish_reason));
  return geminiAnswer(parts, finish, geminiUsageFromChat(asObject(body.usage)), {
    responseId: responseIdFrom(body.id, context.idSeed),
    modelVersion: context.clientModel,
  });
};
