/**
 * The JSON byte tokenizer of both byte scanners: the usage scan (`usage-scan.ts`, which reads
 * exactly what JSON.parse reads from an event) and the body scan (`body-scan.ts`, model, stream
 * and budget of a request body). Each function takes a buffer and a position and returns the
 * position past its token (or -1 when there is none); a buffer ends where its text ends (a scanner
 * passes a view), so no read runs past it. Nothing allocates. Whole values and containers are
 * skipped by `json-skip.ts`, iteratively, over the same tokens.
 *
 * Two levels over one grammar. Strict (`stringEnd`, `numberEnd`, `literalAt`, `skipValue`) checks
 * every token as JSON.parse does. Structural (`closingQuote`, `numberRunEnd`, `structureEnd`)
 * finds only where tokens end: a 70 KB body's nested content needs no more than its brackets
 * counted and its strings skipped with the native search, which keeps the body scan cheap.
 */

export const enum Ch {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  UpperE = 0x45,
  LBracket = 0x5b,
  Backslash = 0x5c,
  RBracket = 0x5d,
  LowerE = 0x65,
  LBrace = 0x7b,
  RBrace = 0x7d,
}

/** Up to this many digits an integer is exact in a double, so its value is added up here. */
const EXACT_DIGITS = 15;

export function isSpace(c: number | undefined): boolean {
  return c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab;
}

export function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= Ch.Zero && c <= Ch.Nine;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/** Past the whitespace at `at`. */
export function skipSpace(b: Buffer, at: number): number {
  const end = b.length;
  let p = at;
  while (p < end && isSpace(b[p])) p++;
  return p;
}

/** Whether the last string `stringEnd` read held an escape (its key must be decoded to be compared). */
let escapes = false;
export function stringHadEscape(): boolean {
  return escapes;
}

/** Strict: past the string at `at` (a quote), or -1 when it is not a valid JSON string. */
export function stringEnd(b: Buffer, at: number): number {
  if (b[at] !== Ch.Quote) return -1;
  const end = b.length;
  let p = at + 1;
  escapes = false;
  while (p < end) {
    const c = b[p] ?? 0;
    if (c === Ch.Quote) return p + 1;
    if (c < 0x20) return -1;
    if (c === Ch.Backslash) {
      escapes = true;
      const x = b[p + 1];
      if (x === 0x75) {
        if (!isHex(b[p + 2]) || !isHex(b[p + 3]) || !isHex(b[p + 4]) || !isHex(b[p + 5])) return -1;
        p += 6;
        continue;
      }
      // " \ / b f n r t
      if (x !== 0x22 && x !== 0x5c && x !== 0x2f && x !== 0x62 && x !== 0x66 && x !== 0x6e && x !== 0x72 && x !== 0x74)
        return -1;
      p += 2;
      continue;
    }
    p++;
  }
  return -1;
}

/** Structural: the index of the quote that closes the string opened at `open`, or -1 when it never closes. */
export function closingQuote(b: Buffer, open: number): number {
  let close = b.indexOf(Ch.Quote, open + 1);
  while (close !== -1) {
    if (b[close - 1] !== Ch.Backslash) return close;
    let slashes = 1;
    for (let i = close - 2; b[i] === Ch.Backslash; i--) slashes++;
    if (slashes % 2 === 0) return close;
    close = b.indexOf(Ch.Quote, close + 1);
  }
  return -1;
}

/** Strict: past the number at `at` in JSON's grammar, or -1 when there is none. */
export function numberEnd(b: Buffer, at: number): number {
  let p = at;
  if (b[p] === Ch.Minus) p++;
  if (b[p] === Ch.Zero) p++;
  else if (isDigit(b[p])) while (isDigit(b[p])) p++;
  else return -1;
  if (b[p] === Ch.Dot) {
    p++;
    if (!isDigit(b[p])) return -1;
    while (isDigit(b[p])) p++;
  }
  if (b[p] === Ch.LowerE || b[p] === Ch.UpperE) {
    p++;
    if (b[p] === Ch.Plus || b[p] === Ch.Minus) p++;
    if (!isDigit(b[p])) return -1;
    while (isDigit(b[p])) p++;
  }
  return p;
}

/** Structural: past the run of bytes a number token may hold (digits, sign, fraction, exponent). */
export function numberRunEnd(b: Buffer, at: number): number {
  let p = at;
  let c = b[p];
  while (isDigit(c) || c === Ch.Minus || c === Ch.Plus || c === Ch.Dot || c === Ch.LowerE || c === Ch.UpperE)
    c = b[++p];
  return p;
}

/**
 * The value of the number spelled by `b[start, end)`, as Number() reads it: plain digits (the usual
 * count or budget) are added up here, a sign, fraction, exponent or long run is rare and parsed.
 */
export function numberValue(b: Buffer, start: number, end: number): number {
  const negative = b[start] === Ch.Minus;
  const from = negative ? start + 1 : start;
  if (end > from && end - from <= EXACT_DIGITS) {
    let value = 0;
    let i = from;
    for (; i < end; i++) {
      const c = b[i] ?? 0;
      if (c < Ch.Zero || c > Ch.Nine) break;
      value = value * 10 + (c - Ch.Zero);
    }
    if (i === end) return negative ? -value : value;
  }
  return Number(b.toString('latin1', start, end));
}

export const enum Literal {
  None,
  True,
  False,
  Null,
}

const LITERALS = [null, Buffer.from('true'), Buffer.from('false'), Buffer.from('null')] as const;

/** The literal spelled at `at` (`true`, `false`, `null`); past the buffer's end there is none. */
export function literalAt(b: Buffer, at: number): Literal {
  const c = b[at];
  const literal = c === 0x74 ? Literal.True : c === 0x66 ? Literal.False : c === 0x6e ? Literal.Null : Literal.None;
  const word = LITERALS[literal];
  if (word === null || at + word.length > b.length) return Literal.None;
  for (let i = 1; i < word.length; i++) if (b[at + i] !== word[i]) return Literal.None;
  return literal;
}

export function literalLength(literal: Literal): number {
  return LITERALS[literal]?.length ?? 0;
}

/** Strict: past the scalar (string, number or literal) at `at`, or -1. */
export function scalarEnd(b: Buffer, at: number): number {
  const c = b[at];
  if (c === Ch.Quote) return stringEnd(b, at);
  if (c === Ch.Minus || isDigit(c)) return numberEnd(b, at);
  const literal = literalAt(b, at);
  return literal === Literal.None ? -1 : at + literalLength(literal);
}
