import { Ch, closingQuote, isSpace, Literal, literalAt, numberRunEnd, numberValue } from './json-tokens';
import { keyIndex, keyTable } from './json-keys';
import { structureEnd, type EmptyValueWatch } from './json-skip';
import type { ScanMemory } from './scan-memory';

/** The top-level keys the scan reads; every other key is skipped without a comparison past its length. */
const KEY_NAMES = ['model', 'stream', 'max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;
type Key = (typeof KEY_NAMES)[number];
const KEYS = keyTable(KEY_NAMES);
/** The answer budget's names (Anthropic, Chat Completions, Responses); the first one present wins. */
type BudgetKey = 'max_tokens' | 'max_completion_tokens' | 'max_output_tokens';

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

/** `"signature"` with its quotes: the key of a thinking block's signature (see unsigned-thinking.ts). */
const SIGNATURE_KEY = Buffer.from('"signature"');

/** The top-level key spelled by the string `raw[open, close]`, or null for any other. */
function keyAt(raw: Buffer, open: number, close: number): Key | null {
  return KEY_NAMES[keyIndex(KEYS, raw, open, close, true)] ?? null;
}

/** A budget as the proxy reads one (parsed or scanned alike): the integer part of a non-negative number. */
export function budgetOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
}

/** The budget the number token at `at` stands for, read as JSON.parse would read it (`budgetOf`); null for any other value. */
function budgetAt(raw: Buffer, at: number): number | null {
  const end = numberRunEnd(raw, at);
  return end === at ? null : budgetOf(numberValue(raw, at, end));
}

/** The stream field a bare literal at `at` gives; past the end of the body there is none (a body may end anywhere). */
function streamAt(raw: Buffer, at: number): StreamField {
  const literal = literalAt(raw, at);
  if (literal === Literal.True) return 'true';
  if (literal === Literal.False) return 'false';
  return literal === Literal.Null ? 'absent' : 'not_boolean';
}

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
  const notes: EmptyValueWatch = { key: SIGNATURE_KEY, seen: false };
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
  if (raw[i] !== Ch.LBrace) return { ok: false };
  let closed = false;
  for (i++; i < raw.length; i++) {
    const c = raw[i];
    if (c === Ch.Quote) {
      const close = closingQuote(raw, i);
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
    } else if (c === Ch.LBrace || c === Ch.LBracket) {
      const end =
        memory !== null && afterColon && keyOpen !== -1
          ? containerWithMemory(raw, i, raw.toString('latin1', keyOpen, keyClose + 1), memory, notes)
          : structureEnd(raw, i + 1, c, notes);
      if (afterColon) other();
      if (end === -1) return { ok: false };
      expectKey = false;
      afterColon = false;
      i = end;
    } else if (c === Ch.RBrace) {
      closed = true;
      break;
    } else if (c === Ch.RBracket) {
      return { ok: false };
    } else if (c === Ch.Comma) {
      expectKey = true;
      key = null;
      keyOpen = -1;
    } else if (c === Ch.Colon) {
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
  return { ok: true, model, stream, maxTokens, emptySignature: notes.seen };
}

/** `structureEnd` for a top-level value, skipping what an earlier body already showed (scan-memory.ts). */
function containerWithMemory(
  raw: Buffer,
  open: number,
  key: string,
  memory: ScanMemory,
  notes: EmptyValueWatch,
): number {
  const recall = memory.recall(raw, key, open);
  const local: EmptyValueWatch = { key: SIGNATURE_KEY, seen: recall?.emptySignature ?? false };
  const end =
    recall === null
      ? structureEnd(raw, open + 1, raw[open] ?? Ch.LBracket, local)
      : recall.kind === 'same'
        ? recall.end
        : structureEnd(raw, recall.resumeAt, Ch.LBracket, local);
  if (end === -1) return -1;
  // A container recalled whole stays remembered in the older body: holding on to each new 70 KB
  // body instead would keep it alive past young-generation collections (promoted, it costs a
  // full collection to free), for nothing the old one cannot answer.
  if (recall?.kind !== 'same') memory.remember(raw, key, open, end, local.seen);
  if (local.seen) notes.seen = true;
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
