import type { FairShareCost } from './fair-share';
import { priceOf } from './price-table';

/**
 * What a request costs in each countable unit: before dispatch an estimate from the body, after the
 * response the usage the relay saw. `percent` is not here: it follows the provider's own report.
 */
export interface RequestCost extends FairShareCost {
  requests: 1;
}

/** JSON request bodies run at about 4 bytes a token for English and code (tokenizers differ ±30 %). */
export const BYTES_PER_TOKEN = 4;
/**
 * The output part of the estimate: `max_tokens` is a ceiling, not a forecast (coding agents send
 * 32 000 and get a few hundred back), so it counts up to this many; without one, the default.
 */
export const OUTPUT_ESTIMATE_CAP = 4_096;
export const OUTPUT_ESTIMATE_DEFAULT = 1_024;

const PER_MILLION = 1_000_000;

/**
 * The pre-check's estimate (QPIPE-1): one request, input tokens from the body size, output tokens
 * from `max_tokens` capped, and USD at the model's list price (0 for an unknown model).
 */
export function estimateCost(input: {
  bodyBytes: number;
  maxTokens: number | null;
  model: string | null;
}): RequestCost {
  const inputTokens = Math.ceil(Math.max(0, input.bodyBytes) / BYTES_PER_TOKEN);
  const outputTokens =
    input.maxTokens !== null && input.maxTokens > 0
      ? Math.min(Math.floor(input.maxTokens), OUTPUT_ESTIMATE_CAP)
      : OUTPUT_ESTIMATE_DEFAULT;
  const price = priceOf(input.model);
  const usd = price === null ? 0 : (inputTokens * price.input + outputTokens * price.output) / PER_MILLION;
  return { requests: 1, tokens: inputTokens + outputTokens, usd };
}

/**
 * The usage a response reported. `inputTokens` are the prompt tokens neither read from nor written to
 * the cache (Anthropic's `input_tokens`; for OpenAI pass `prompt_tokens − cached_tokens`).
 */
export interface ObservedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/**
 * The cost to record after the response (QPIPE-4): tokens are every token the upstream processed
 * (input, output and both cache kinds, as plan quotas count them); USD at list price, cache reads and
 * writes at their own rates (input rate where the family has none); 0 USD for an unknown model.
 */
export function actualCost(usage: ObservedUsage, model: string | null): RequestCost {
  const input = Math.max(0, usage.inputTokens);
  const output = Math.max(0, usage.outputTokens);
  const read = Math.max(0, usage.cacheReadTokens);
  const write = Math.max(0, usage.cacheWriteTokens);
  const price = priceOf(model);
  const usd =
    price === null
      ? 0
      : (input * price.input +
          output * price.output +
          read * (price.cacheRead ?? price.input) +
          write * (price.cacheWrite ?? price.input)) /
        PER_MILLION;
  return { requests: 1, tokens: input + output + read + write, usd };
}
