import type { Json, RequestTranslator } from './translate-types';
import { appendAnthropicFromTurns } from './anthropic-messages-from-gemini';
import { readGeminiRequest } from './gemini-request';
import type { GeminiToolChoice } from './gemini-tools';
import { DEFAULT_MAX_TOKENS, THINKING_BUDGETS } from './messages-request-from-chat';
import { refuse } from './refusal';

/**
 * Gemini `generateContent` request → Anthropic Messages request, directly (not through Chat, which
 * has no top_k, no thinking budget and no PDFs, and whose stream drops thinking signatures that a
 * tool loop with thinking must send back). See README "Gemini" for every refusal and drop.
 */

/** Anthropic's smallest thinking budget; "the model decides" (-1) gets the medium step. */
const MIN_BUDGET = 1024;
const DYNAMIC_BUDGET = THINKING_BUDGETS.medium ?? 4096;

export const messagesRequestFromGemini: RequestTranslator = (body, options) => {
  const read = readGeminiRequest(body);
  if (!read.ok) return read;
  const { system, turns, tools, choice, generation: g, dropped } = read.value;
  const messages: Json[] = [];
  const refusal = appendAnthropicFromTurns(turns, dropped, messages);
  if (refusal) return { ok: false, refusal };

  const out: Json = { model: options.model, messages };
  if (system !== null && system.length > 0) out.system = system;
  if (g.stop.length > 0) out.stop_sequences = g.stop;
  for (const [name, value] of [
    ['seed', g.seed],
    ['presencePenalty', g.presencePenalty],
    ['frequencyPenalty', g.frequencyPenalty],
  ] as const) {
    if (value !== null) dropped.add(`generationConfig.${name}`);
  }
  if (g.json) {
    if (!g.json.schema) {
      return refuse(
        'generationConfig.responseMimeType',
        'Anthropic has JSON output only with a schema (responseJsonSchema)',
      );
    }
    out.output_config = { format: { type: 'json_schema', schema: g.json.schema } };
  }
  if (tools.length > 0) {
    out.tools = tools.map((tool) => {
      const converted: Json = { name: tool.name };
      if (tool.description !== null) converted.description = tool.description;
      converted.input_schema = tool.parameters;
      return converted;
    });
    const toolChoice = anthropicToolChoice(choice);
    if (toolChoice) out.tool_choice = toolChoice;
  }
  let maxTokens = g.maxTokens ?? DEFAULT_MAX_TOKENS;
  const budget = thinkingBudget(g.thinking, choice, messages, dropped);
  if (budget !== null) {
    out.thinking = { type: 'enabled', budget_tokens: budget };
    // max_tokens counts thinking too and must exceed the budget.
    if (maxTokens <= budget) maxTokens += budget;
    // With thinking on, Anthropic takes no temperature or top_k and only a top_p ≥ 0.95: drop them rather than fail.
    for (const [name, value] of [
      ['temperature', g.temperature],
      ['topP', g.topP],
      ['topK', g.topK],
    ] as const) {
      if (value !== null) dropped.add(`generationConfig.${name}`);
    }
  } else {
    if (g.temperature !== null) out.temperature = g.temperature;
    // Recent Claude models refuse temperature and top_p together; temperature is the one kept.
    if (g.topP !== null && g.temperature === null) out.top_p = g.topP;
    else if (g.topP !== null) dropped.add('generationConfig.topP');
    if (g.topK !== null) out.top_k = g.topK;
  }
  out.max_tokens = maxTokens;
  if (options.stream === true) out.stream = true;
  return { ok: true, body: out, dropped: [...dropped] };
};

function anthropicToolChoice(choice: GeminiToolChoice): Json | null {
  if (choice.forced !== null) return { type: 'tool', name: choice.forced };
  switch (choice.mode) {
    case 'AUTO':
      return { type: 'auto' };
    case 'ANY':
      return { type: 'any' };
    case 'NONE':
      return { type: 'none' };
    case null:
      return null;
  }
}

/**
 * The thinking budget to ask Anthropic for, or null. Anthropic refuses thinking with a forced tool,
 * and refuses a tool loop in progress whose assistant turn does not start with the thinking it
 * wrote (which a Gemini client sends back only inside a call's signature): then thinking is left out.
 */
function thinkingBudget(
  thinking: { budget: number | null } | null,
  choice: GeminiToolChoice,
  messages: readonly Json[],
  dropped: Set<string>,
): number | null {
  if (thinking === null) return null;
  const forced = choice.mode === 'ANY' || choice.forced !== null;
  if (forced || (inToolLoop(messages) && !lastAssistantThinks(messages))) {
    dropped.add('generationConfig.thinkingConfig');
    return null;
  }
  return Math.max(MIN_BUDGET, thinking.budget ?? DYNAMIC_BUDGET);
}

function inToolLoop(messages: readonly Json[]): boolean {
  const last = messages[messages.length - 1];
  return last?.role === 'user' && (last.content as Json[]).some((block) => block.type === 'tool_result');
}

function lastAssistantThinks(messages: readonly Json[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'assistant') continue;
    const first = (message.content as Json[])[0]?.type;
    return first === 'thinking' || first === 'redacted_thinking';
  }
  return false;
}
