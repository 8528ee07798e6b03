import type { Json } from './translate-types';
import { asNumber, asObject } from './json-narrow';

/**
 * Token counts both ways. Chat `prompt_tokens` includes cached tokens; Anthropic `input_tokens`
 * excludes both cache reads and cache writes. Chat has no cache-write count, so going
 * Anthropic → Chat folds cache writes into `prompt_tokens`, and coming back they are plain input.
 */
export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The cached part of a Chat prompt: `prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`. */
function cachedTokensOf(usage: Json): number {
  return asNumber(asObject(usage.prompt_tokens_details)?.cached_tokens) ?? asNumber(usage.prompt_cache_hit_tokens) ?? 0;
}

export function messagesUsageFromChat(usage: Json | null): MessagesUsage {
  if (!usage) return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const prompt = asNumber(usage.prompt_tokens) ?? 0;
  const cached = Math.min(cachedTokensOf(usage), prompt);
  return {
    input_tokens: prompt - cached,
    output_tokens: asNumber(usage.completion_tokens) ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

/** Anthropic counters as read so far (a stream learns them in message_start and message_delta). */
export interface MessagesCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
}

export function countsFromMessagesUsage(usage: Json | null, into: MessagesCounts): MessagesCounts {
  if (!usage) return into;
  into.input = asNumber(usage.input_tokens) ?? into.input;
  into.output = asNumber(usage.output_tokens) ?? into.output;
  into.cacheRead = asNumber(usage.cache_read_input_tokens) ?? into.cacheRead;
  into.cacheCreation = asNumber(usage.cache_creation_input_tokens) ?? into.cacheCreation;
  return into;
}

export function chatUsageFromCounts(counts: MessagesCounts): Json {
  const prompt = counts.input + counts.cacheRead + counts.cacheCreation;
  return {
    prompt_tokens: prompt,
    completion_tokens: counts.output,
    total_tokens: prompt + counts.output,
    prompt_tokens_details: { cached_tokens: counts.cacheRead },
  };
}
