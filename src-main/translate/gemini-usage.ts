import type { Json } from './translate-types';
import { asNumber, asObject } from './json-narrow';
import type { MessagesCounts, MessagesUsage } from './usage-map';

/**
 * Gemini's `usageMetadata` both ways. `promptTokenCount` includes the cached part
 * (`cachedContentTokenCount`); `candidatesTokenCount` excludes thinking (`thoughtsTokenCount`),
 * which Chat counts inside `completion_tokens` (as `reasoning_tokens`) and Anthropic inside
 * `output_tokens`. `toolUsePromptTokenCount` (results of Google-side tools) is input. Anthropic's
 * cache writes have no Gemini count and are plain prompt tokens.
 */
export interface GeminiCounts {
  prompt: number;
  cached: number;
  candidates: number;
  thoughts: number;
}

export function countsFromGemini(usage: Json | null): GeminiCounts {
  const n = (key: string) => asNumber(usage?.[key]) ?? 0;
  const prompt = n('promptTokenCount') + n('toolUsePromptTokenCount');
  return {
    prompt,
    cached: Math.min(n('cachedContentTokenCount'), prompt),
    candidates: n('candidatesTokenCount'),
    thoughts: n('thoughtsTokenCount'),
  };
}

export function chatUsageFromGemini(usage: Json | null): Json {
  const c = countsFromGemini(usage);
  const completion = c.candidates + c.thoughts;
  const out: Json = {
    prompt_tokens: c.prompt,
    completion_tokens: completion,
    total_tokens: c.prompt + completion,
    prompt_tokens_details: { cached_tokens: c.cached },
  };
  if (c.thoughts > 0) out.completion_tokens_details = { reasoning_tokens: c.thoughts };
  return out;
}

export function messagesUsageFromGemini(usage: Json | null): MessagesUsage {
  const c = countsFromGemini(usage);
  return {
    input_tokens: c.prompt - c.cached,
    output_tokens: c.candidates + c.thoughts,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: c.cached,
  };
}

/** The `usageMetadata` object; zero cache and thought counts are left out, as Google leaves them out. */
export function geminiUsage(c: GeminiCounts): Json {
  const out: Json = {
    promptTokenCount: c.prompt,
    candidatesTokenCount: c.candidates,
    totalTokenCount: c.prompt + c.candidates + c.thoughts,
  };
  if (c.cached > 0) out.cachedContentTokenCount = c.cached;
  if (c.thoughts > 0) out.thoughtsTokenCount = c.thoughts;
  return out;
}

export function geminiUsageFromChat(usage: Json | null): Json {
  const prompt = asNumber(usage?.prompt_tokens) ?? 0;
  const completion = asNumber(usage?.completion_tokens) ?? 0;
  const cached =
    asNumber(asObject(usage?.prompt_tokens_details)?.cached_tokens) ?? asNumber(usage?.prompt_cache_hit_tokens) ?? 0;
  const reasoning = Math.min(asNumber(asObject(usage?.completion_tokens_details)?.reasoning_tokens) ?? 0, completion);
  return geminiUsage({
    prompt,
    cached: Math.min(cached, prompt),
    candidates: completion - reasoning,
    thoughts: reasoning,
  });
}

export function geminiUsageFromMessages(counts: MessagesCounts): Json {
  const prompt = counts.input + counts.cacheRead + counts.cacheCreation;
  return geminiUsage({ prompt, cached: counts.cacheRead, candidates: counts.output, thoughts: 0 });
}
