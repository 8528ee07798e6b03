/**
 * ROUTE-4: an upstream that refuses a request for its number of tools. Messages seen from real
 * providers: OpenAI's `Invalid 'tools': array too long. Expected an array with maximum length 128, but
 * got an array with length 325 instead.` (code `array_above_max_length`), GitHub Copilot's `You may
 * not include more than 128 tools in your request.`, Gemini's `At most 128 function declarations can
 * be specified`, and generic `too many tools` wordings.
 */
const PATTERNS: readonly RegExp[] = [
  /'tools'[^.]*array too long/i,
  /not include more than \d+ tools/i,
  /at most \d+ (function declarations|tools)/i,
  /too many tools/i,
  /tools?[^.]{0,40}(limit|maximum)[^.]{0,40}exceed/i,
  /(maximum|max) (number of )?tools/i,
];

/** The announced maximum, when the message names one (`maximum length 128`, `more than 128 tools`). */
function announcedMax(text: string): number | null {
  const m = /maximum length (\d+)|more than (\d+) tools|at most (\d+)|maximum of (\d+) tools/i.exec(text);
  const raw = m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4];
  return raw === undefined ? null : Number(raw);
}

/**
 * The least number of tools this upstream refuses, from a 400/413/422 body; null when the refusal
 * is about something else. `sent` is the refused request's tool count (the threshold when no
 * maximum is announced).
 */
export function toolsLimitFrom(status: number, bodyText: string, sent: number): number | null {
  if (status !== 400 && status !== 413 && status !== 422) return null;
  if (!PATTERNS.some((p) => p.test(bodyText))) return null;
  const max = announcedMax(bodyText);
  if (max !== null && max >= 0) return max + 1;
  return sent > 0 ? sent : null;
}

/**
 * The request's tool count (Anthropic and Chat Completions `tools`, legacy `functions`); parsed only
 * when a limit is known or a refusal is being read, never on the hot path of a plain request.
 */
export function countTools(body: Buffer): number {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return 0;
    const tools: unknown = Reflect.get(parsed, 'tools') ?? Reflect.get(parsed, 'functions');
    return Array.isArray(tools) ? tools.length : 0;
  } catch {
    return 0;
  }
}

/** Demotes (stable) the candidates whose known limit the request's tool count reaches. */
export function demoteByTools<T>(
  candidates: readonly T[],
  limitOf: (c: T) => number | null,
  tools: number,
): readonly T[] {
  if (tools === 0) return candidates;
  const over = (c: T) => {
    const limit = limitOf(c);
    return limit !== null && tools >= limit;
  };
  if (!candidates.some(over)) return candidates;
  return [...candidates.filter((c) => !over(c)), ...candidates.filter(over)];
}
