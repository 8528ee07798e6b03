const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MODEL_KEY = Buffer.from('"model"');

/** The index of the quote that ends the string whose opening quote is at `open` (JSON already valid). */
function stringEnd(raw: Buffer, open: number): number {
  let close = raw.indexOf(QUOTE, open + 1);
  while (close !== -1) {
    let slashes = 0;
    for (let i = close - 1; raw[i] === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 0) return close;
    close = raw.indexOf(QUOTE, close + 1);
  }
  return raw.length;
}

function isModelKey(raw: Buffer, open: number, close: number): boolean {
  if (close - open + 1 === MODEL_KEY.length) return raw.compare(MODEL_KEY, 0, MODEL_KEY.length, open, close + 1) === 0;
  // An escaped spelling ("mod\u0065l") is legal JSON; decode only that rare shape.
  return raw.indexOf(BACKSLASH, open) < close && JSON.parse(raw.toString('utf8', open, close + 1)) === 'model';
}

/**
 * Where the top-level `"model"` string value sits in a body JSON.parse already accepted:
 * [start, end) of its token including quotes, the last one when the key repeats (as JSON.parse
 * reads it), or null. One pass; string contents are skipped with the native indexOf.
 */
export function findModelValue(raw: Buffer): { start: number; end: number } | null {
  let depth = 0;
  let expectKey = false;
  let keyIsModel = false;
  let afterColon = false;
  let found: { start: number; end: number } | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === QUOTE) {
      const close = stringEnd(raw, i);
      if (depth === 1 && expectKey) {
        keyIsModel = isModelKey(raw, i, close);
        expectKey = false;
      } else if (depth === 1 && afterColon && keyIsModel) {
        found = { start: i, end: close + 1 };
      }
      afterColon = false;
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      expectKey = depth === 1 && c === OPEN_OBJECT;
      afterColon = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    } else if (depth === 1 && c === COMMA) {
      expectKey = true;
      keyIsModel = false;
    } else if (depth === 1 && c === COLON) {
      afterColon = true;
    }
  }
  return found;
}

/**
 * The same body with the top-level model replaced by `model`, built from three slices instead of
 * parsing and re-serialising the whole body (a Claude Code request is ~70 KB), or null when the
 * body has no top-level string model to replace.
 */
export function replaceModel(raw: Buffer, model: string): Buffer | null {
  const at = findModelValue(raw);
  if (at === null) return null;
  const value = Buffer.from(JSON.stringify(model));
  return Buffer.concat(
    [raw.subarray(0, at.start), value, raw.subarray(at.end)],
    raw.length - (at.end - at.start) + value.length,
  );
}
