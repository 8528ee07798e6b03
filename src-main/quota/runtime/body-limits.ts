/** The names a client uses for its answer budget: Anthropic, Chat Completions, Responses. */
const NAMES = ['"max_tokens"', '"max_completion_tokens"', '"max_output_tokens"'].map((n) => Buffer.from(n));

const COLON = 0x3a;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;

/**
 * The request's answer budget (`max_tokens` and its aliases), found in the raw bytes without parsing
 * the body: only requests a pool covers pay for this, and a Claude Code body is ~70 KB. A nested
 * field of the same name could be picked up instead; this feeds an estimate, never a refusal alone.
 */
export function maxTokensOf(body: Buffer): number | null {
  for (const name of NAMES) {
    const at = body.lastIndexOf(name);
    if (at === -1) continue;
    let i = at + name.length;
    while (i < body.length && isSpace(body[i] ?? 0)) i++;
    if (body[i] !== COLON) continue;
    i++;
    while (i < body.length && isSpace(body[i] ?? 0)) i++;
    let n = 0;
    let digits = 0;
    while (i < body.length && isDigit(body[i] ?? 0) && digits < 10) {
      n = n * 10 + ((body[i] ?? 0x30) - 0x30);
      i++;
      digits++;
    }
    if (digits > 0) return n;
  }
  return null;
}
