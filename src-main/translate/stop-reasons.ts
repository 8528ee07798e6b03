/**
 * Stop reasons both ways, in one place. Chat Completions reports `stop` both for a natural end and
 * for a matched stop sequence and does not say which sequence matched; some servers do (vLLM's
 * choice `stop_reason`, SGLang's `matched_stop`), and only then does `stop_sequence` come back.
 */
export interface MessagesStop {
  stop_reason: string;
  stop_sequence: string | null;
}

export function messagesStopFromChat(
  finishReason: string | null,
  hadToolCalls: boolean,
  matchedStop: string | null,
  requestStops: readonly string[],
): MessagesStop {
  switch (finishReason) {
    case 'tool_calls':
    case 'function_call':
      return { stop_reason: 'tool_use', stop_sequence: null };
    case 'length':
      return { stop_reason: 'max_tokens', stop_sequence: null };
    case 'content_filter':
      // Anthropic's `refusal` is a different event (a classifier stop); older clients do not know it.
      return { stop_reason: 'end_turn', stop_sequence: null };
    default:
      if (matchedStop !== null && requestStops.includes(matchedStop)) {
        return { stop_reason: 'stop_sequence', stop_sequence: matchedStop };
      }
      // Some OpenAI-compatible servers answer `stop` with tool calls; the client must still run them.
      return { stop_reason: hadToolCalls ? 'tool_use' : 'end_turn', stop_sequence: null };
  }
}

export function chatFinishFromMessages(stopReason: string | null): string {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn and anything newer: the turn ended normally.
      return 'stop';
  }
}
