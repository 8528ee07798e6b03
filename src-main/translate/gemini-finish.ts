/**
 * Gemini's `finishReason` both ways. Gemini says STOP for a turn that ends in function calls (it
 * has no tool-use reason); Chat and Anthropic answers say so, and the caller knows whether calls
 * came. The blocked family (SAFETY, RECITATION, BLOCKLIST…) reads as Chat's `content_filter` and,
 * like `content_filter` in stop-reasons.ts, as Anthropic's `end_turn`. A malformed or unexpected
 * call has no Chat or Anthropic reason: the turn just ended.
 */
const BLOCKED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'LANGUAGE',
]);

export function chatFinishFromGemini(finishReason: string | null, hadCalls: boolean): string {
  if (finishReason === 'MAX_TOKENS') return 'length';
  if (finishReason !== null && BLOCKED.has(finishReason)) return 'content_filter';
  return hadCalls ? 'tool_calls' : 'stop';
}

export function messagesStopFromGemini(finishReason: string | null, hadCalls: boolean): string {
  if (finishReason === 'MAX_TOKENS') return 'max_tokens';
  if (finishReason !== null && BLOCKED.has(finishReason)) return 'end_turn';
  return hadCalls ? 'tool_use' : 'end_turn';
}

/** Chat `finish_reason` → Gemini; null (a server that never said) reads as a normal end. */
export function geminiFinishFromChat(finishReason: string | null): string {
  switch (finishReason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      // stop, tool_calls, function_call and anything newer: the turn ended normally.
      return 'STOP';
  }
}

/** Anthropic `stop_reason` → Gemini. */
export function geminiFinishFromMessages(stopReason: string | null): string {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'MAX_TOKENS';
    case 'refusal':
      return 'SAFETY';
    default:
      // end_turn, stop_sequence, tool_use, pause_turn and anything newer.
      return 'STOP';
  }
}
