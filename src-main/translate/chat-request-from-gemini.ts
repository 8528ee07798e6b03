import type { Json, RequestTranslator } from './translate-types';
import { appendChatFromTurns } from './chat-messages-from-gemini';
import { readGeminiRequest } from './gemini-request';
import type { GeminiToolChoice } from './gemini-tools';

/**
 * Gemini `generateContent` request → Chat Completions request (a Gemini client, such as Gemini CLI,
 * served by an OpenAI-compatible connection). The model is the upstream's (Gemini names it in the
 * URL); a stream is asked for by the URL too (`options.stream`). See README "Gemini" for every
 * refusal and drop.
 */
export const chatRequestFromGemini: RequestTranslator = (body, options) => {
  const read = readGeminiRequest(body);
  if (!read.ok) return read;
  const { system, turns, tools, choice, generation: g, dropped } = read.value;
  const messages: Json[] = [];
  if (system !== null && system.length > 0) messages.push({ role: 'system', content: system });
  const refusal = appendChatFromTurns(turns, { reasoning: options.reasoning, dropped }, messages);
  if (refusal) return { ok: false, refusal };

  const out: Json = { model: options.model, messages };
  if (g.maxTokens !== null) out.max_tokens = g.maxTokens;
  if (g.temperature !== null) out.temperature = g.temperature;
  if (g.topP !== null) out.top_p = g.topP;
  // Gemini CLI sends topK on every turn; Chat has no such knob, and refusing would refuse the CLI.
  if (g.topK !== null) dropped.add('generationConfig.topK');
  if (g.stop.length > 0) out.stop = g.stop;
  if (g.seed !== null) out.seed = g.seed;
  if (g.presencePenalty !== null) out.presence_penalty = g.presencePenalty;
  if (g.frequencyPenalty !== null) out.frequency_penalty = g.frequencyPenalty;
  // As for Anthropic clients (chat-request-from-messages.ts): each Chat server spells its thinking
  // switch differently, and one it does not know is a 400.
  if (g.thinking !== null) dropped.add('generationConfig.thinkingConfig');
  if (g.json) {
    out.response_format = g.json.schema
      ? { type: 'json_schema', json_schema: { name: 'response', schema: g.json.schema } }
      : { type: 'json_object' };
  }
  if (tools.length > 0) {
    out.tools = tools.map((tool) => {
      const fn: Json = { name: tool.name };
      if (tool.description !== null) fn.description = tool.description;
      fn.parameters = tool.parameters;
      return { type: 'function', function: fn };
    });
    const toolChoice = chatToolChoice(choice);
    if (toolChoice !== null) out.tool_choice = toolChoice;
  }
  if (options.stream === true) {
    out.stream = true;
    // Without it a Chat stream has no usage, and Gemini's last chunk carries usageMetadata.
    out.stream_options = { include_usage: true };
  }
  return { ok: true, body: out, dropped: [...dropped] };
};

function chatToolChoice(choice: GeminiToolChoice): Json | string | null {
  if (choice.forced !== null) return { type: 'function', function: { name: choice.forced } };
  switch (choice.mode) {
    case 'AUTO':
      return 'auto';
    case 'ANY':
      return 'required';
    case 'NONE':
      return 'none';
    case null:
      return null;
  }
}
