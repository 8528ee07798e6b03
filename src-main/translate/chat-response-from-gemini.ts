import type { Json, ResponseTranslator } from './translate-types';
import { CREATED_UNKNOWN } from './chat-response-from-messages';
import { readCandidate } from './gemini-candidate';
import { chatFinishFromGemini } from './gemini-finish';
import { clientToolId } from './gemini-ids';
import { chatUsageFromGemini } from './gemini-usage';
import { completionIdFromMessages, toolCallIdFor } from './ids';

/**
 * A whole Gemini answer → a chat.completion. Text parts join into `content`, thought parts into
 * `reasoning_content`, function calls become `tool_calls` whose id carries the call's signature
 * (gemini-ids.ts: the client sends the id back, and Gemini 3 wants the signature back).
 */
export const chatResponseFromGemini: ResponseTranslator = (body, context) => {
  const answer = readCandidate(body);
  let text: string | null = null;
  let reasoning: string | null = null;
  const toolCalls: Json[] = [];
  for (const part of answer.parts) {
    if (part.kind === 'text') text = (text ?? '') + part.text;
    else if (part.kind === 'thought') reasoning = (reasoning ?? '') + part.text;
    else {
      const id = clientToolId(part.id ?? toolCallIdFor(context.idSeed, toolCalls.length), part.signature);
      toolCalls.push({ id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.args) } });
    }
  }
  const message: Json = { role: 'assistant', content: text ?? (toolCalls.length > 0 ? null : ''), refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== null) message.reasoning_content = reasoning;
  const finish = chatFinishFromGemini(answer.finishReason, toolCalls.length > 0);
  return {
    id: completionIdFromMessages(answer.responseId, context.idSeed),
    object: 'chat.completion',
    created: CREATED_UNKNOWN,
    model: context.clientModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: chatUsageFromGemini(answer.usage),
  };
};
