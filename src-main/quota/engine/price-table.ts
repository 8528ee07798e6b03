/**
 * List prices in USD per million tokens by model family, for the `usd` dimension (QPIPE-4) and the
 * pre-check's estimate. Data only, checked against the providers' public pricing pages as of
 * 2026-12 and approximate: they change, long-context and batch tiers are ignored, and a dated model
 * id falls into its family. First match wins, so specific patterns come before general ones.
 * A model that matches nothing costs 0 USD: the usd dimension then never blocks on an estimate.
 */
export interface ModelPrice {
  /** A readable family name (tests, the UI). */
  family: string;
  /** Tested against the model id in lower case, after any `provider/` prefix. */
  match: RegExp;
  input: number;
  output: number;
  /** null: billed as input. */
  cacheRead: number | null;
  /** null: billed as input (providers that charge nothing extra for writing the cache). */
  cacheWrite: number | null;
}

export const PRICE_TABLE: readonly ModelPrice[] = [
  // Anthropic: Opus 4 / 4.1 (and 3) kept the old tier; Opus 4.5 and later are $5 / $25.
  {
    family: 'claude-opus-legacy',
    match: /^claude-(3-opus|opus-4(-[01])?(-\d{8})?$|opus-4-[01]-)/,
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheWrite: 18.75,
  },
  { family: 'claude-opus', match: /opus/, input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  { family: 'claude-sonnet-5', match: /sonnet-5/, input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  { family: 'claude-sonnet', match: /sonnet/, input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  {
    family: 'claude-haiku-3.5',
    match: /^claude-(3-5-haiku|haiku-3-5)/,
    input: 0.8,
    output: 4,
    cacheRead: 0.08,
    cacheWrite: 1,
  },
  { family: 'claude-haiku-3', match: /^claude-3-haiku/, input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
  { family: 'claude-haiku', match: /haiku/, input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  // OpenAI: cached input is the cache read; writing the cache costs nothing extra.
  { family: 'gpt-4o-mini', match: /^gpt-4o-mini/, input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: null },
  { family: 'gpt-4o', match: /^(chatgpt-)?gpt-4o/, input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: null },
  { family: 'gpt-4.1-nano', match: /^gpt-4\.1-nano/, input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: null },
  { family: 'gpt-4.1-mini', match: /^gpt-4\.1-mini/, input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: null },
  { family: 'gpt-4.1', match: /^gpt-4\.1/, input: 2, output: 8, cacheRead: 0.5, cacheWrite: null },
  { family: 'gpt-5.5', match: /^gpt-5\.5/, input: 5, output: 30, cacheRead: 0.5, cacheWrite: null },
  { family: 'gpt-5.4-mini', match: /^gpt-5\.4-mini/, input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: null },
  { family: 'gpt-5.4', match: /^gpt-5\.4/, input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: null },
  { family: 'gpt-5-nano', match: /^gpt-5(\.\d+)?-nano/, input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: null },
  { family: 'gpt-5-mini', match: /^gpt-5(\.\d+)?-mini/, input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: null },
  { family: 'gpt-5', match: /^gpt-5/, input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: null },
  // Zhipu / Z.ai GLM.
  { family: 'glm-5', match: /^glm-5/, input: 1, output: 3.2, cacheRead: 0.2, cacheWrite: null },
  { family: 'glm', match: /^glm-/, input: 0.6, output: 2.2, cacheRead: 0.11, cacheWrite: null },
  // Moonshot Kimi K2.
  { family: 'kimi', match: /kimi|moonshot/, input: 0.6, output: 2.5, cacheRead: 0.15, cacheWrite: null },
  // DeepSeek.
  {
    family: 'deepseek-reasoner',
    match: /^deepseek-(reasoner|r1)/,
    input: 0.55,
    output: 2.19,
    cacheRead: 0.14,
    cacheWrite: null,
  },
  { family: 'deepseek', match: /^deepseek/, input: 0.27, output: 1.1, cacheRead: 0.07, cacheWrite: null },
  // MiniMax M2.
  { family: 'minimax', match: /minimax/, input: 0.3, output: 1.2, cacheRead: 0.03, cacheWrite: 0.375 },
];

/** The price entry of a model id, or null when no family matches. */
export function priceOf(model: string | null | undefined): ModelPrice | null {
  if (model === null || model === undefined) return null;
  // Memoised: the same few model ids come with every request; the table scan and lowercasing need not.
  const known = memo.get(model);
  if (known !== undefined) return known;
  const found = lookUp(model);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(model, found);
  return found;
}

const MEMO_MAX = 256;
const memo = new Map<string, ModelPrice | null>();

function lookUp(model: string): ModelPrice | null {
  const slash = model.lastIndexOf('/');
  const id = (slash >= 0 ? model.slice(slash + 1) : model).trim().toLowerCase();
  if (id === '') return null;
  for (const entry of PRICE_TABLE) if (entry.match.test(id)) return entry;
  return null;
}
