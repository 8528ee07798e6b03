import type { Usage } from './usage-tap';

/**
 * Reads the token counts of one SSE event's JSON straight from its bytes, with exactly the result
 * of `JSON.parse` and then reading `usage`, `message.usage` and `response.usage` (usage-tap.ts):
 * the same values, the last of a repeated key winning, nothing at all from text that is not a JSON
 * object. Inside a proxy each request runs cold, and there the parse of a 300-byte
 * `message_start` cost ~20 µs (its key strings are looked up in V8's string table, its objects
 * built); this walk compares bytes with constants and builds nothing. It is iterative below the
 * three levels it reads, so no nesting depth can overflow the stack.
 */

const enum Ch {
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

/** The keys the walk acts on; any other key is OTHER. */
const enum Key {
  Other,
  Usage,
  Message,
  Response,
  InputTokens,
  PromptTokens,
  OutputTokens,
  CompletionTokens,
  CacheRead,
  CacheWrite,
  PromptDetails,
  InputDetails,
  CachedTokens,
}

const KEYS: readonly [string, Key][] = [
  ['usage', Key.Usage],
  ['message', Key.Message],
  ['response', Key.Response],
  ['input_tokens', Key.InputTokens],
  ['prompt_tokens', Key.PromptTokens],
  ['output_tokens', Key.OutputTokens],
  ['completion_tokens', Key.CompletionTokens],
  ['cache_read_input_tokens', Key.CacheRead],
  ['cache_creation_input_tokens', Key.CacheWrite],
  ['prompt_tokens_details', Key.PromptDetails],
  ['input_tokens_details', Key.InputDetails],
  ['cached_tokens', Key.CachedTokens],
];
const KEY_BYTES: readonly [Buffer, Key][] = KEYS.map(([name, key]) => [Buffer.from(name), key]);
const KEY_BY_NAME = new Map<string, Key>(KEYS);

/** A details object's state as `asObject` sees the key's last value. */
const enum Details {
  Absent,
  Object,
  NotObject,
}

/** One path's `usage`, as JSON.parse would leave it: each field the last occurrence's number, or null. */
interface Slot {
  /** The path's last `usage` value was an object. */
  object: boolean;
  input: number | null;
  prompt: number | null;
  output: number | null;
  completion: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  promptDetails: Details;
  promptCached: number | null;
  inputDetails: Details;
  inputCached: number | null;
}

function emptySlot(): Slot {
  return {
    object: false,
    input: null,
    prompt: null,
    output: null,
    completion: null,
    cacheRead: null,
    cacheWrite: null,
    promptDetails: Details.Absent,
    promptCached: null,
    inputDetails: Details.Absent,
    inputCached: null,
  };
}

function clear(s: Slot): void {
  s.object = false;
  s.input = s.prompt = s.output = s.completion = s.cacheRead = s.cacheWrite = null;
  s.promptDetails = s.inputDetails = Details.Absent;
  s.promptCached = s.inputCached = null;
}

// One walk at a time (synchronous, never re-entered): its state lives here, not in a closure per line.
let buf: Buffer = Buffer.alloc(0);
let pos = 0;
let end = 0;
/** The key `readKey` just read. */
let key: Key = Key.Other;
/** The number `readValueNumber` just read (null: the value was not a finite number). */
let found: number | null = null;
let stack = new Uint8Array(32);
const top = emptySlot();
const inMessage = emptySlot();
const inResponse = emptySlot();

// The loops below copy the walk's state into locals: module bindings are reloaded (and checked) at
// every access, which made the byte loops several times slower.
function ws(): void {
  const b = buf;
  let p = pos;
  while (p < end) {
    const c = b[p];
    if (c !== Ch.Space && c !== Ch.Lf && c !== Ch.Cr && c !== Ch.Tab) break;
    p++;
  }
  pos = p;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/** Past a string starting at `pos` (a quote); false when it is not a valid JSON string. Sets `escaped`. */
let escaped = false;
function skipString(): boolean {
  const b = buf;
  const e = end;
  let p = pos;
  if (b[p] !== Ch.Quote) return false;
  p++;
  let sawEscape = false;
  while (p < e) {
    const c = b[p] ?? 0;
    if (c === Ch.Quote) {
      pos = p + 1;
      escaped = sawEscape;
      return true;
    }
    if (c < 0x20) return false;
    if (c === Ch.Backslash) {
      sawEscape = true;
      const x = b[p + 1];
      if (x === 0x75) {
        if (!isHex(b[p + 2]) || !isHex(b[p + 3]) || !isHex(b[p + 4]) || !isHex(b[p + 5])) return false;
        p += 6;
        continue;
      }
      // " \ / b f n r t
      if (x !== 0x22 && x !== 0x5c && x !== 0x2f && x !== 0x62 && x !== 0x66 && x !== 0x6e && x !== 0x72 && x !== 0x74)
        return false;
      p += 2;
      continue;
    }
    p++;
  }
  return false;
}

/** Reads an object key (a string) into `key`; false when it is not a valid string. */
function readKey(): boolean {
  const start = pos + 1;
  if (!skipString()) return false;
  const to = pos - 1;
  if (escaped) {
    // Rare: an escaped key means what it decodes to, as JSON.parse reads it.
    const name: unknown = JSON.parse(buf.toString('utf8', start - 1, pos));
    key = (typeof name === 'string' ? KEY_BY_NAME.get(name) : undefined) ?? Key.Other;
    return true;
  }
  key = Key.Other;
  const b = buf;
  const length = to - start;
  for (let k = 0; k < KEY_BYTES.length; k++) {
    const entry = KEY_BYTES[k];
    if (entry === undefined) continue;
    const name = entry[0];
    if (name.length !== length) continue;
    let same = true;
    for (let i = 0; i < length; i++)
      if (b[start + i] !== name[i]) {
        same = false;
        break;
      }
    if (same) {
      key = entry[1];
      return true;
    }
  }
  return true;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= Ch.Zero && c <= Ch.Nine;
}

/** Past a number in JSON's grammar; false when there is none. Its value goes to `found` (null if not finite). */
function readNumber(): boolean {
  const b = buf;
  const start = pos;
  let p = pos;
  let negative = false;
  if (b[p] === Ch.Minus) {
    negative = true;
    p++;
  }
  if (b[p] === Ch.Zero) p++;
  else if (isDigit(b[p])) while (isDigit(b[p])) p++;
  else return false;
  const intEnd = p;
  let plain = true;
  if (b[p] === Ch.Dot) {
    plain = false;
    p++;
    if (!isDigit(b[p])) return false;
    while (isDigit(b[p])) p++;
  }
  if (b[p] === Ch.LowerE || b[p] === Ch.UpperE) {
    plain = false;
    p++;
    if (b[p] === Ch.Plus || b[p] === Ch.Minus) p++;
    if (!isDigit(b[p])) return false;
    while (isDigit(b[p])) p++;
  }
  pos = p;
  const digitsFrom = negative ? start + 1 : start;
  if (plain && intEnd - digitsFrom <= 15) {
    let value = 0;
    for (let i = digitsFrom; i < intEnd; i++) value = value * 10 + ((b[i] ?? Ch.Zero) - Ch.Zero);
    found = negative ? -value : value;
  } else {
    const value = Number(b.toString('latin1', start, p));
    found = Number.isFinite(value) ? value : null;
  }
  return true;
}

/** Past one literal (`true`, `false`, `null`). */
function skipLiteral(): boolean {
  const c = buf[pos];
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : null;
  if (word === null || pos + word.length > end) return false;
  for (let i = 0; i < word.length; i++) if (buf[pos + i] !== word.charCodeAt(i)) return false;
  pos += word.length;
  return true;
}

function skipScalar(): boolean {
  const c = buf[pos];
  if (c === Ch.Quote) return skipString();
  if (c === Ch.Minus || isDigit(c)) return readNumber();
  return skipLiteral();
}

const OBJ = 1;
const ARR = 2;

/** Past any value, checking it as JSON.parse would; iterative, so nesting depth costs no stack. */
function skipValue(): boolean {
  let depth = 0;
  for (;;) {
    ws();
    const c = buf[pos];
    let closed = false;
    if (c === Ch.LBrace || c === Ch.LBracket) {
      pos++;
      if (depth === stack.length) {
        const grown = new Uint8Array(stack.length * 2);
        grown.set(stack);
        stack = grown;
      }
      stack[depth++] = c === Ch.LBrace ? OBJ : ARR;
      ws();
      if (buf[pos] === (c === Ch.LBrace ? Ch.RBrace : Ch.RBracket)) {
        pos++;
        depth--;
        closed = true;
      } else if (c === Ch.LBrace) {
        if (!readKey()) return false;
        ws();
        if (buf[pos] !== Ch.Colon) return false;
        pos++;
        continue;
      } else continue;
    }
    if (!closed && !skipScalar()) return false;
    // After a value: a comma goes on to the next, a closing bracket ends its container.
    for (;;) {
      if (depth === 0) return true;
      ws();
      const d = buf[pos];
      const container = stack[depth - 1];
      if (d === Ch.Comma) {
        pos++;
        if (container === OBJ) {
          ws();
          if (!readKey()) return false;
          ws();
          if (buf[pos] !== Ch.Colon) return false;
          pos++;
        }
        break;
      }
      if ((container === OBJ && d === Ch.RBrace) || (container === ARR && d === Ch.RBracket)) {
        pos++;
        depth--;
        continue;
      }
      return false;
    }
  }
}

/** Reads an object's members, handing each key's value to `member` (which must consume it). */
function readObject(member: (k: Key) => boolean): boolean {
  if (buf[pos] !== Ch.LBrace) return false;
  pos++;
  ws();
  if (buf[pos] === Ch.RBrace) {
    pos++;
    return true;
  }
  for (;;) {
    ws();
    if (!readKey()) return false;
    ws();
    if (buf[pos] !== Ch.Colon) return false;
    pos++;
    ws();
    if (!member(key)) return false;
    ws();
    const c = buf[pos];
    pos++;
    if (c === Ch.RBrace) return true;
    if (c !== Ch.Comma) return false;
  }
}

/** A value that counts only when it is a finite number: `found` is its number or null. */
function numberValue(): boolean {
  const c = buf[pos];
  if (c === Ch.Minus || isDigit(c)) return readNumber();
  // Set after the walk: the numbers inside a skipped value pass through `found` too.
  const ok = skipValue();
  found = null;
  return ok;
}

let details: Slot = top;
let detailsOf: Key = Key.PromptDetails;

function detailsMember(k: Key): boolean {
  if (k !== Key.CachedTokens) return skipValue();
  if (!numberValue()) return false;
  if (detailsOf === Key.PromptDetails) details.promptCached = found;
  else details.inputCached = found;
  return true;
}

let slot: Slot = top;

function usageMember(k: Key): boolean {
  const s = slot;
  switch (k) {
    case Key.InputTokens:
    case Key.PromptTokens:
    case Key.OutputTokens:
    case Key.CompletionTokens:
    case Key.CacheRead:
    case Key.CacheWrite: {
      if (!numberValue()) return false;
      if (k === Key.InputTokens) s.input = found;
      else if (k === Key.PromptTokens) s.prompt = found;
      else if (k === Key.OutputTokens) s.output = found;
      else if (k === Key.CompletionTokens) s.completion = found;
      else if (k === Key.CacheRead) s.cacheRead = found;
      else s.cacheWrite = found;
      return true;
    }
    case Key.PromptDetails:
    case Key.InputDetails: {
      const prompt = k === Key.PromptDetails;
      // The key's last value decides: a repeated key starts over.
      if (prompt) s.promptCached = null;
      else s.inputCached = null;
      if (buf[pos] !== Ch.LBrace) {
        if (prompt) s.promptDetails = Details.NotObject;
        else s.inputDetails = Details.NotObject;
        return skipValue();
      }
      if (prompt) s.promptDetails = Details.Object;
      else s.inputDetails = Details.Object;
      details = s;
      detailsOf = k;
      return readObject(detailsMember);
    }
    default:
      return skipValue();
  }
}

/** A `usage` value for `s`: reset (the last one wins), then read when it is an object. */
function usageValue(s: Slot): boolean {
  clear(s);
  if (buf[pos] !== Ch.LBrace) return skipValue();
  s.object = true;
  slot = s;
  return readObject(usageMember);
}

let holder: Slot = inMessage;

function holderMember(k: Key): boolean {
  return k === Key.Usage ? usageValue(holder) : skipValue();
}

function topMember(k: Key): boolean {
  if (k === Key.Usage) return usageValue(top);
  if (k === Key.Message || k === Key.Response) {
    const s = k === Key.Message ? inMessage : inResponse;
    // A repeated `message` replaces the earlier one, usage and all.
    clear(s);
    if (buf[pos] !== Ch.LBrace) return skipValue();
    holder = s;
    return readObject(holderMember);
  }
  return skipValue();
}

function absorb(usage: Usage, s: Slot): void {
  if (!s.object) return;
  usage.inputTokens = s.input ?? s.prompt ?? usage.inputTokens;
  usage.outputTokens = s.output ?? s.completion ?? usage.outputTokens;
  usage.cacheReadTokens = s.cacheRead ?? usage.cacheReadTokens;
  usage.cacheWriteTokens = s.cacheWrite ?? usage.cacheWriteTokens;
  const cached =
    s.promptDetails === Details.Object ? s.promptCached : s.inputDetails === Details.Object ? s.inputCached : undefined;
  if (cached !== undefined) usage.cacheReadTokens = cached ?? usage.cacheReadTokens;
}

/**
 * Adds the usage that the JSON text in `line[from, to)` carries at `usage`, `message.usage` or
 * `response.usage` to `usage`, in that order; leaves it unchanged when the text is not one valid
 * JSON object.
 */
export function scanUsage(line: Buffer, from: number, to: number, usage: Usage): void {
  // A view that ends at `to`, so no read can run past the text.
  buf = to === line.length ? line : line.subarray(0, to);
  pos = from;
  end = to;
  clear(top);
  clear(inMessage);
  clear(inResponse);
  try {
    ws();
    const whole = readObject(topMember) && (ws(), pos === end);
    if (!whole) return;
  } catch {
    // Never expected (an escaped key is checked before it is decoded), but the tap only reads: no throw reaches the relay.
    return;
  } finally {
    buf = EMPTY; // do not pin the socket chunk between lines
    // A hostile line's deep nesting grew the stack: give that memory back.
    if (stack.length > 1024) stack = new Uint8Array(32);
  }
  absorb(usage, top);
  absorb(usage, inMessage);
  absorb(usage, inResponse);
}

const EMPTY = Buffer.alloc(0);
