import { describe, expect, it } from 'vitest';
import { chatFinishFromMessages, messagesStopFromChat } from './stop-reasons';
import { chatUsageFromCounts, messagesUsageFromChat } from './usage-map';

describe('stop reasons and usage between Chat and Anthropic', () => {
  it('issue 12: Chat finish reasons → Anthropic stop reasons', () => {
    const stop = (finish: string | null, tools = false) => messagesStopFromChat(finish, tools, null, []).stop_reason;
    expect(stop('stop')).toBe('end_turn');
    expect(stop('length')).toBe('max_tokens');
    expect(stop('tool_calls')).toBe('tool_use');
    expect(stop('function_call')).toBe('tool_use');
    expect(stop('content_filter')).toBe('end_turn');
    expect(stop(null)).toBe('end_turn');
    expect(stop('stop', true)).toBe('tool_use');
    expect(stop('length', true)).toBe('max_tokens');
  });

  it('issue 12: stop_sequence only when the named stop is one the client asked for', () => {
    expect(messagesStopFromChat('stop', false, '###', ['###'])).toEqual({
      stop_reason: 'stop_sequence',
      stop_sequence: '###',
    });
    expect(messagesStopFromChat('stop', false, '###', ['END']).stop_reason).toBe('end_turn');
  });

  it('issue 12: Anthropic stop reasons → Chat finish reasons', () => {
    expect(chatFinishFromMessages('end_turn')).toBe('stop');
    expect(chatFinishFromMessages('stop_sequence')).toBe('stop');
    expect(chatFinishFromMessages('max_tokens')).toBe('length');
    expect(chatFinishFromMessages('tool_use')).toBe('tool_calls');
    expect(chatFinishFromMessages('refusal')).toBe('content_filter');
    expect(chatFinishFromMessages(null)).toBe('stop');
  });

  it('issue 12: cached tokens never make input_tokens negative, and counts add up both ways', () => {
    expect(messagesUsageFromChat({ prompt_tokens: 5, prompt_tokens_details: { cached_tokens: 9 } })).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 5,
    });
    expect(chatUsageFromCounts({ input: 3, output: 4, cacheRead: 5, cacheCreation: 6 })).toEqual({
      prompt_tokens: 14,
      completion_tokens: 4,
      total_tokens: 18,
      prompt_tokens_details: { cached_tokens: 5 },
    });
  });
});
