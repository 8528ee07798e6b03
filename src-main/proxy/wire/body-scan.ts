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
 * reads them), whether a nested `"signature": ""` occurs, string contents skipped with the native
 * indexOf and nested containers with a loop that only counts brackets. Checks the structure (one
 * object, strings closed, brackets matched, nothing after it), not every token: an upstream still
 * refuses what slips through.
 */
export function scanBody(raw: Buffer, memory: ScanMemory | null = null): BodyScan {
  let i = 0;
  while (isSpace(raw[i])) i++;
  if (raw[i] !== Ch.LBrace) return { ok: false };
  return new TopLevel(raw, memory).scan(i + 1);
}

/** The walk over the top-level object's members; nested values are skipped whole. */
class TopLevel {
  private expectKey = true;
  private key: Key | null = null;
  /** The current top-level key's quotes, for the memory (-1: none). */
  private keyOpen = -1;
  private keyClose = -1;
  private afterColon = false;
  private model: Span | null = null;
  private stream: StreamField = 'absent';
  private readonly notes: EmptyValueWatch = { key: SIGNATURE_KEY, seen: false };
  private readonly budget: Record<BudgetKey, number | null> = {
    max_tokens: null,
    max_completion_tokens: null,
    max_output_tokens: null,
  };

  constructor(
    private readonly raw: Buffer,
    private readonly memory: ScanMemory | null,
  ) {}

  /** From just past the opening brace: the scan, or not ok when the body is not one JSON object. */
  scan(from: number): BodyScan {
    const raw = this.raw;
    for (let i = from; i < raw.length; i++) {
      const c = raw[i];
      if (c === Ch.Quote) i = this.string(i);
      else if (c === Ch.LBrace || c === Ch.LBracket) i = this.container(i, c);
      else if (c === Ch.RBrace) return this.closed(i + 1);
      else if (c === Ch.RBracket) return { ok: false };
      else if (c === Ch.Comma) {
        this.expectKey = true;
        this.key = null;
        this.keyOpen = -1;
      } else if (c === Ch.Colon) this.afterColon = true;
      else if (this.afterColon && !isSpace(c)) this.bare(i);
      if (i === -1) return { ok: false };
    }
    return { ok: false };
  }

  /** A key or a string value at `open`: where it closes, or -1 when it never does. */
  private string(open: number): number {
    const close = closingQuote(this.raw, open);
    if (close === -1) return -1;
    if (this.expectKey) {
      this.key = keyAt(this.raw, open, close);
      this.keyOpen = open;
      this.keyClose = close;
      this.expectKey = false;
    } else if (this.afterColon) {
      if (this.key === 'model') this.model = { start: open, end: close + 1 };
      else this.other();
    }
    this.afterColon = false;
    return close;
  }

  /** A nested object or array at `open`: where it closes, or -1 when it never does. */
  private container(open: number, c: number): number {
    const { raw, memory, afterColon, keyOpen } = this;
    const end =
      memory !== null && afterColon && keyOpen !== -1
        ? containerWithMemory(raw, open, raw.toString('latin1', keyOpen, this.keyClose + 1), memory, this.notes)
        : structureEnd(raw, open + 1, c, this.notes);
    if (afterColon) this.other();
    this.expectKey = false;
    this.afterColon = false;
    return end;
  }

  /** A bare literal or number, which may be the last bytes of a (malformed) body: every read is bounded. */
  private bare(at: number): void {
    const key = this.key;
    if (key === 'stream') this.stream = streamAt(this.raw, at);
    else if (key === 'model' || key === null) this.other();
    else this.budget[key] = budgetAt(this.raw, at);
    this.afterColon = false;
  }

  /** A top-level value that is not what the key needs (a string budget, an object model …) resets it. */
  private other(): void {
    const key = this.key;
    if (key === 'model') this.model = null;
    else if (key === 'stream') this.stream = 'not_boolean';
    else if (key !== null) this.budget[key] = null;
  }

  /** The object closed just before `from`: ok when only whitespace follows. */
  private closed(from: number): BodyScan {
    const raw = this.raw;
    for (let i = from; i < raw.length; i++) if (!isSpace(raw[i])) return { ok: false };
    const { budget, model, stream } = this;
    const maxTokens = budget.max_tokens ?? budget.max_completion_tokens ?? budget.max_output_tokens;
    return { ok: true, model, stream, maxTokens, emptySignature: this.notes.seen };
  }
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
