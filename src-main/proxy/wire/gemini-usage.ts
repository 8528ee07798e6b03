import type { Usage } from './usage-tap';

/** Gemini's `usageMetadata` counts as read (null: absent or not a finite number). */
export interface GeminiCounts {
  prompt: number | null;
  candidates: number | null;
  cached: number | null;
  thoughts: number | null;
}

/**
 * Merges Gemini's counts into the running totals, in the quota engine's terms (cost-estimate.ts):
 * input is the prompt without its cache reads (`promptTokenCount` includes `cachedContentTokenCount`,
 * as Anthropic's `input_tokens` does not); output is `candidatesTokenCount + thoughtsTokenCount`,
 * because Google bills thinking as output and Anthropic's `output_tokens` and OpenAI's
 * `completion_tokens` already include their thinking. Both usage-scan.ts and the JSON-body reading
 * call this, so the two agree to the bit.
 */
export function applyGeminiCounts(usage: Usage, c: GeminiCounts): void {
  if (c.prompt !== null) usage.inputTokens = Math.max(0, c.prompt - (c.cached ?? 0));
  if (c.candidates !== null || c.thoughts !== null) usage.outputTokens = (c.candidates ?? 0) + (c.thoughts ?? 0);
  if (c.cached !== null) usage.cacheReadTokens = c.cached;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Merges one parsed `usageMetadata` value; anything but an object adds nothing. */
export function absorbGeminiUsage(usage: Usage, raw: unknown): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const u = raw as Record<string, unknown>;
  applyGeminiCounts(usage, {
    prompt: num(u.promptTokenCount),
    candidates: num(u.candidatesTokenCount),
    cached: num(u.cachedContentTokenCount),
    thoughts: num(u.thoughtsTokenCount),
  });
}
