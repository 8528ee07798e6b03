import type { Json, ResponseTranslator } from './translate-types';
import { readCandidate } from './gemini-candidate';
import { messagesStopFromGemini } from './gemini-finish';
import { clientToolId } from './gemini-ids';
import { messagesUsageFromGemini } from './gemini-usage';
import { messageIdFromChat, toolCallIdFor } from './ids';

/**
 * A whole Gemini answer → an Anthropic message. Thought parts become a `thinking` block with an
 * empty signature (Gemini's signature is no Anthropic one; messages-response-from-chat.ts does the
 * same for Chat reasoning), text parts one text block per run, calls `tool_use` blocks whose id
 * carries the call's signature (gemini-ids.ts).
 */
export const messagesResponseFromGemini: ResponseTranslator = (body, context) => {
  const answer = readCandidate(body);
  const content: Json[] = [];
  let calls = 0;
  for (const part of answer.parts) {
    const last = content[content.length - 1];
    if (part.kind === 'call') {
      const id = clientToolId(part.id ?? toolCallIdFor(context.idSeed, calls), part.signature);
      calls++;
      content.push({ type: 'tool_use', id, name: part.name, input: part.args });
    } else if (part.kind === 'thought') {
      if (last?.type === 'thinking') last.thinking = String(last.thinking) + part.text;
      else if (part.text) content.push({ type: 'thinking', thinking: part.text, signature: '' });
    } else if (part.text) {
      if (last?.type === 'text') last.text = String(last.text) + part.text;
      else content.push({ type: 'text', text: part.text });
    }
  }
  const hadCalls = content.some((block) => block.type === 'tool_use');
  return {
    id: messageIdFromChat(answer.responseId, context.idSeed),
    type: 'message',
    role: 'assistant',
    model: context.clientModel,
    content,
    stop_reason: messagesStopFromGemini(answer.finishReason, hadCalls),
    stop_sequence: null,
    usage: messagesUsageFromGemini(answer.usage),
  };
};
