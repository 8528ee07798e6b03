import type { ScanMemory } from './scan-memory';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const ZERO = 0x30;
const NINE = 0x39;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** The top-level keys the scan reads; every other key is skipped without a comparison past its length. */
const KEYS = [
  { name: 'model', bytes: Buffer.from('"model"') },
  { name: 'stream', bytes: Buffer.from('"stream"') },
  { name: 'max_tokens', bytes: Buffer.from('"max_tokens"') },
  { name: 'max_completion_tokens', bytes: Buffer.from('"max_completion_tokens"') },
  { name: 'max_output_tokens', bytes: Buffer.from('"max_output_tokens"') },
] as const;
type Key = (typeof KEYS)[number]['name'];
/** The answer budget's names (Anthropic, Chat Completions, Responses); the first one present wins. */
type BudgetKey = 'max_tokens' | 'max_completion_tokens' | 'max_output_tokens';
/** Up to this many digits an integer is exact in a double, so the scan adds them up itself. */
const EXACT_DIGITS = 15;

/**
 * The top-level `stream` as JSON.parse reads it: `true`, `false`, `absent` (missing or null, which
 * both APIs read as false) or `not_boolean` (a number, a string …, which the proxy refuses).
 */
export type StreamField = 'true' | 'false' | 'absent' | 'not_boolean';

/** A token's place in the body: [start, end), quotes included for strings. */
export interface Span {
  start: number;
  end: number;
}

/**
 * What routing needs from a body, read without building it: the top-level model and stream values,
 * and the answer budget (`max_tokens` or an alias; a non-negative integer prefix, else null).
 */
export type BodyScan =
  | {
      ok: true;
      model: Span | null;
      stream: StreamField;
      maxTokens: number | null;
      /** Some object, at any depth, has `"signature": ""` (see unsigned-thinking.ts): read in the same pass. */
      emptySignature: boolean;
    }
  | { ok: false };

/** `"signature"` with its quotes: the key of a thinking block's signature. */
const SIGNATURE_KEY = Buffer.from('"signature"');

/** Whether the string closing at `close` (opened at `open`) is the key `"signature"` followed by `: ""`. */
function isEmptySignature(raw: Buffer, open: number, close: number): boolean {
  if (close - open + 1 !== SIGNATURE_KEY.length || raw[open + 1] !== 0x73) return false;
  if (raw.compare(SIGNATURE_KEY, 0, SIGNATURE_KEY.length, open, close + 1) !== 0) return false;
  let at = close + 1;
  while (isSpace(raw[at])) at++;
  if (raw[at] !== COLON) return false;
  at++;
  while (isSpace(raw[at])) at++;
  return raw[at] === QUOTE && raw[at + 1] === QUOTE;
}

/** What a container walk noticed on the way (one object per scan, not per container). */
interface Notes {
  emptySignature: boolean;
}

/** The index of the quote that ends the string opened at `open`, or -1 when it never ends. */
function stringEnd(raw: Buffer, open: number): number {
  let close = raw.indexOf(QUOTE, open + 1);
  while (close !== -1) {
    if (raw[close - 1] !== BACKSLASH) return close;
    let slashes = 1;
    for (let i = close - 2; raw[i] === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 0) return close;
    close = raw.indexOf(QUOTE, close + 1);
  }
  return -1;
}

/**
 * The index of the bracket closing the container opened at `open`, or -1 when brackets do not match
 * or it never closes. Nested content only needs its brackets counted and its strings skipped, so
 * this loop tests each byte outside strings against four brackets and a quote, nothing more.
 */
function containerEnd(raw: Buffer, open: number, notes: Notes): number {
  return containerEndFrom(raw, open + 1, [raw[open] === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY], notes);
}

/** The walk of `containerEnd` from `from`, with `closers` the brackets still open there (outside a string). */
function containerEndFrom(raw: Buffer, from: number, closers: number[], notes: Notes): number {
  for (let i = from; i < raw.length; i++) {
    const c = raw[i];
    if (c === QUOTE) {
      const close = stringEnd(raw, i);
      if (close === -1) return -1;
      // A length test per string; the comparison only for an 11-byte string starting with `s`.
      if (!notes.emptySignature && isEmptySignature(raw, i, close)) notes.emptySignature = true;
      i = close;
    } else if (c === OPEN_OBJECT) closers.push(CLOSE_OBJECT);
    else if (c === OPEN_ARRAY) closers.push(CLOSE_ARRAY);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (closers.pop() !== c) return -1;
      if (closers.length === 0) return i;
    }
  }
  return -1;
}

function keyAt(raw: Buffer, open: number, close: number): Key | null {
  const length = close - open + 1;
  for (const key of KEYS) {
    if (length === key.bytes.length && raw.compare(key.bytes, 0, length, open, close + 1) === 0) return key.name;
  }
  // An escaped spelling ("mod\u0065l") is legal JSON; decode only that rare shape.
  const slash = raw.indexOf(BACKSLASH, open);
  if (slash === -1 || slash > close) return null;
  try {
    const name: unknown = JSON.parse(raw.toString('utf8', open, close + 1));
    return KEYS.find((key) => key.name === name)?.name ?? null;
  } catch {
    return null;
  }
}

/** A budget as the proxy reads one (parsed or scanned alike): the integer part of a non-negative number. */
export function budgetOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
}

/** Bytes a JSON number token may hold: digits, sign, fraction and exponent. */
const isNumberByte = (c: number | undefined) =>
  c !== undefined && ((c >= ZERO && c <= NINE) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45);

/** The budget the number token at `at` stands for, read as JSON.parse would read it (`budgetOf`); null for any other value. */
function budgetAt(raw: Buffer, at: number): number | null {
  let end = at;
  let value = 0;
  let plain = true;
  for (let c = raw[end]; isNumberByte(c); c = raw[++end]) {
    if (c !== undefined && c >= ZERO && c <= NINE) value = value * 10 + (c - ZERO);
    else plain = false;
  }
  if (end === at) return null;
  // Plain digits, the usual budget, are added up above; a sign, fraction, exponent or a long run is rare.
  return plain && end - at <= EXACT_DIGITS ? value : budgetOf(Number(raw.toString('latin1', at, end)));
}

/** Whether `literal` is spelled at `at`; past the end of the body it is not (a body may end anywhere). */
function literalAt(raw: Buffer, at: number, literal: Buffer): boolean {
  const end = at + literal.length;
  return end <= raw.length && raw.compare(literal, 0, literal.length, at, end) === 0;
}

/** The stream field a bare literal at `at` gives. */
function streamAt(raw: Buffer, at: number): StreamField {
  if (literalAt(raw, at, TRUE)) return 'true';
  if (literalAt(raw, at, FALSE)) return 'false';
  return literalAt(raw, at, NULL) ? 'absent' : 'not_boolean';
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * One pass over a JSON body: the span of the top-level `"model"` value, the top-level `stream`
 * (`StreamField`) and the top-level answer budget (the last occurrence of each, as JSON.parse
 * reads them), whether a nested `"signature": ""` occurs, string contents skipped with the native indexOf and nested containers with a loop
 * that only counts brackets. Checks the structure (one object, strings closed, brackets matched,
 * nothing after it), not every token: an upstream still refuses what slips through.
 */
export function scanBody(raw: Buffer, memory: ScanMemory | null = null): BodyScan {
  let expectKey = true;
  let key: Key | null = null;
  /** The current top-level key's quotes, for the memory (-1: none). */
  let keyOpen = -1;
  let keyClose = -1;
  let afterColon = false;
  let model: Span | null = null;
  let stream: StreamField = 'absent';
  const notes: Notes = { emptySignature: false };
  const budget: Record<BudgetKey, number | null> = {
    max_tokens: null,
    max_completion_tokens: null,
    max_output_tokens: null,
  };
  /** A top-level value that is not what the key needs (a string budget, an object model …) resets it. */
  const other = () => {
    if (key === 'model') model = null;
    else if (key === 'stream') stream = 'not_boolean';
    else if (key !== null) budget[key] = null;
  };
  let i = 0;
  while (isSpace(raw[i])) i++;
  if (raw[i] !== OPEN_OBJECT) return { ok: false };
  let closed = false;
  for (i++; i < raw.length; i++) {
    const c = raw[i];
    if (c === QUOTE) {
      const close = stringEnd(raw, i);
      if (close === -1) return { ok: false };
      if (expectKey) {
        key = keyAt(raw, i, close);
        keyOpen = i;
        keyClose = close;
        expectKey = false;
      } else if (afterColon) {
        if (key === 'model') model = { start: i, end: close + 1 };
        else other();
      }
      afterColon = false;
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const end =
        memory !== null && afterColon && keyOpen !== -1
          ? containerWithMemory(raw, i, raw.toString('latin1', keyOpen, keyClose + 1), memory, notes)
          : containerEnd(raw, i, notes);
      if (afterColon) other();
      if (end === -1) return { ok: false };
      expectKey = false;
      afterColon = false;
      i = end;
    } else if (c === CLOSE_OBJECT) {
      closed = true;
      break;
    } else if (c === CLOSE_ARRAY) {
      return { ok: false };
    } else if (c === COMMA) {
      expectKey = true;
      key = null;
      keyOpen = -1;
    } else if (c === COLON) {
      afterColon = true;
    } else if (afterColon && !isSpace(c)) {
      // A bare literal or number, which may be the last bytes of a (malformed) body: every read is bounded.
      if (key === 'stream') stream = streamAt(raw, i);
      else if (key === 'model' || key === null) other();
      else budget[key] = budgetAt(raw, i);
      afterColon = false;
    }
  }
  if (!closed) return { ok: false };
  for (i++; i < raw.length; i++) if (!isSpace(raw[i])) return { ok: false };
  const maxTokens = budget.max_tokens ?? budget.max_completion_tokens ?? budget.max_output_tokens;
  return { ok: true, model, stream, maxTokens, emptySignature: notes.emptySignature };
}

/** `containerEnd` for a top-level value, skipping what an earlier body already showed (scan-memory.ts). */
function containerWithMemory(raw: Buffer, open: number, key: string, memory: ScanMemory, notes: Notes): number {
  const recall = memory.recall(raw, key, open);
  const local: Notes = { emptySignature: recall?.emptySignature ?? false };
  const end =
    recall === null
      ? containerEnd(raw, open, local)
      : recall.kind === 'same'
        ? recall.end
        : containerEndFrom(raw, recall.resumeAt, [CLOSE_ARRAY], local);
  if (end === -1) return -1;
  // A container recalled whole stays remembered in the older body: holding on to each new 70 KB
  // body instead would keep it alive past young-generation collections (promoted, it costs a
  // full collection to free), for nothing the old one cannot answer.
  if (recall?.kind !== 'same') memory.remember(raw, key, open, end, local.emptySignature);
  if (local.emptySignature) notes.emptySignature = true;
  return end;
}

/** The span of the top-level model string value, or null (see scanBody). */
export function findModelValue(raw: Buffer): Span | null {
  const scan = scanBody(raw);
  return scan.ok ? scan.model : null;
}

/**
 * The same body with the top-level model replaced by `model`, built from three slices instead of
 * parsing and re-serialising the whole body (a Claude Code request is ~70 KB), or null when the
 * body has no top-level string model to replace.
 */
export function replaceModel(raw: Buffer, model: string, at: Span | null = findModelValue(raw)): Buffer | null {
  if (at === null) return null;
  const value = Buffer.from(JSON.stringify(model));
  return Buffer.concat(
    [raw.subarray(0, at.start), value, raw.subarray(at.end)],
    raw.length - (at.end - at.start) + value.length,
  );
}
