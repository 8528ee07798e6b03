/**
 * Context windows in tokens by model family, for `context-optimized`. Data only, from the providers'
 * public model pages as of 2026-12 (standard tier; 1M-token betas ignored). First match wins, tested
 * against the lower-cased id after any `provider/` prefix; no match: unknown.
 */
export const CONTEXT_WINDOWS: readonly { match: RegExp; tokens: number }[] = [
  { match: /^claude-/, tokens: 200_000 },
  { match: /^gpt-4\.1/, tokens: 1_047_576 },
  { match: /^gpt-5/, tokens: 400_000 },
  { match: /^gpt-4o/, tokens: 128_000 },
  { match: /^o[134](-|$)/, tokens: 200_000 },
  { match: /^gemini-/, tokens: 1_048_576 },
  { match: /^glm-4\.5-air/, tokens: 128_000 },
  { match: /^glm-/, tokens: 200_000 },
  { match: /minimax/, tokens: 204_800 },
  { match: /^kimi-k2/, tokens: 256_000 },
  { match: /^deepseek/, tokens: 128_000 },
  { match: /^qwen3-coder/, tokens: 262_144 },
];

export function contextWindowOf(model: string): number | null {
  const slash = model.lastIndexOf('/');
  const id = (slash >= 0 ? model.slice(slash + 1) : model).trim().toLowerCase();
  for (const entry of CONTEXT_WINDOWS) if (entry.match.test(id)) return entry.tokens;
  return null;
}
