const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MODEL_KEY = Buffer.from('"model"');
const STREAM_KEY = Buffer.from('"stream"');
const TRUE = Buffer.from('true');

/** A token's place in the body: [start, end), quotes included for strings. */
export interface Span {
  start: number;
  end: number;
}

/** What routing needs from a body, read without building it: the top-level model and stream values. */
export type BodyScan = { ok: true; model: Span | null; streamTrue: boolean } | { ok: false };

/** The index of the quote that ends the string opened at `open`, or -1 when it never ends. */
function stringEnd(raw: Buffer, open: number): number {
  let close = raw.indexOf(QUOTE, open + 1);
  while (close !== -1) {
    let slashes = 0;
    for (let i = close - 1; raw[i] === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 0) return close;
    close = raw.indexOf(QUOTE, close + 1);
  }
  return -1;
}

function isKey(raw: Buffer, key: Buffer, name: string, open: number, close: number): boolean {
  if (close - open + 1 === key.length) return raw.compare(key, 0, key.length, open, close + 1) === 0;
  // An escaped spelling ("mod\u0065l") is legal JSON; decode only that rare shape.
  const slash = raw.indexOf(BACKSLASH, open);
  if (slash === -1 || slash > close) return false;
  try {
    return JSON.parse(raw.toString('utf8', open, close + 1)) === name;
  } catch {
    return false;
  }
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * One pass over a JSON body: the span of the top-level `"model"` value and whether the top-level
 * `stream` is `true` (the last occurrence of each, as JSON.parse reads them), string contents
 * skipped with the native indexOf. Checks the structure (one object, strings closed, brackets
 * matched, nothing after it), not every token: an upstream still refuses what slips through.
 */
export function scanBody(raw: Buffer): BodyScan {
  const stack: number[] = [];
  let expectKey = false;
  let key: 'model' | 'stream' | null = null;
  let afterColon = false;
  let model: Span | null = null;
  let streamTrue = false;
  let i = 0;
  while (isSpace(raw[i])) i++;
  if (raw[i] !== OPEN_OBJECT) return { ok: false };
  for (; i < raw.length; i++) {
    const c = raw[i];
    if (c === QUOTE) {
      const close = stringEnd(raw, i);
      if (close === -1) return { ok: false };
      if (stack.length === 1 && expectKey) {
        key = isKey(raw, MODEL_KEY, 'model', i, close)
          ? 'model'
          : isKey(raw, STREAM_KEY, 'stream', i, close)
            ? 'stream'
            : null;
        expectKey = false;
      } else if (stack.length === 1 && afterColon) {
        if (key === 'model') model = { start: i, end: close + 1 };
        else if (key === 'stream') streamTrue = false;
      }
      afterColon = false;
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (stack.length === 1 && afterColon) {
        if (key === 'model') model = null;
        else if (key === 'stream') streamTrue = false;
      }
      stack.push(c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY);
      expectKey = stack.length === 1 && c === OPEN_OBJECT;
      afterColon = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (stack.pop() !== c) return { ok: false };
      if (stack.length === 0) break;
    } else if (stack.length === 1 && c === COMMA) {
      expectKey = true;
      key = null;
    } else if (stack.length === 1 && c === COLON) {
      afterColon = true;
    } else if (stack.length === 1 && afterColon && !isSpace(c)) {
      // A bare literal or number at the top level: only `stream: true` matters, any other value resets.
      if (key === 'model') model = null;
      else if (key === 'stream') streamTrue = raw.compare(TRUE, 0, TRUE.length, i, i + TRUE.length) === 0;
      afterColon = false;
    }
  }
  if (stack.length !== 0) return { ok: false };
  for (i++; i < raw.length; i++) if (!isSpace(raw[i])) return { ok: false };
  return { ok: true, model, streamTrue };
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
