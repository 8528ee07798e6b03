import { Ch, isDigit, numberEnd, numberValue, skipSpace, stringEnd, stringHadEscape } from './json-tokens';
import { keyIndex, keyTable } from './json-keys';
import { skipValue } from './json-skip';
import type { Usage } from './usage-tap';
import { applyGeminiCounts, type GeminiCounts } from './gemini-usage';

/**
 * Reads the token counts of one SSE event's JSON straight from its bytes, with exactly the result
 * of `JSON.parse` and then reading `usage`, `message.usage`, `response.usage` and Gemini's `usageMetadata` (usage-tap.ts):
 * the same values, the last of a repeated key winning, nothing at all from text that is not a JSON
 * object. Inside a proxy each request runs cold, and there the parse of a 300-byte
 * `message_start` cost ~20 µs (its key strings are looked up in V8's string table, its objects
 * built); this walk compares bytes with constants and builds nothing. Its tokens are the strict
 * ones of `json-tokens.ts`, whose walk over a skipped value is iterative, so no nesting depth can
 * overflow the stack.
 */

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
  UsageMetadata,
  PromptTokenCount,
  CandidatesTokenCount,
  CachedContentTokenCount,
  ThoughtsTokenCount,
}

/** The names of the keys after OTHER, in the enum's order (a key's index + 1 is its Key). */
const KEYS = keyTable([
  'usage',
  'message',
  'response',
  'input_tokens',
  'prompt_tokens',
  'output_tokens',
  'completion_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
  'prompt_tokens_details',
  'input_tokens_details',
  'cached_tokens',
  'usageMetadata',
  'promptTokenCount',
  'candidatesTokenCount',
  'cachedContentTokenCount',
  'thoughtsTokenCount',
]);

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
/** The event's text: a view that ends where the text ends, so no read runs past it. */
let buf: Buffer = Buffer.alloc(0);
let pos = 0;
/** The key `readKey` just read. */
let key: Key = Key.Other;
/** The number `numberValue` just read (null: the value was not a finite number). */
let found: number | null = null;
const top = emptySlot();
const inMessage = emptySlot();
const inResponse = emptySlot();
/** Gemini's top-level `usageMetadata`, as JSON.parse would leave it (`object`: its last value was an object). */
const gemini: GeminiCounts & { object: boolean } = {
  object: false,
  prompt: null,
  candidates: null,
  cached: null,
  thoughts: null,
};

function clearGemini(): void {
  gemini.object = false;
  gemini.prompt = gemini.candidates = gemini.cached = gemini.thoughts = null;
}

function ws(): void {
  pos = skipSpace(buf, pos);
}

/** Reads an object key (a string) into `key`; false when it is not a valid string. */
function readKey(): boolean {
  const open = pos;
  const end = stringEnd(buf, open);
  if (end === -1) return false;
  pos = end;
  key = keyIndex(KEYS, buf, open, end - 1, stringHadEscape()) + 1;
  return true;
}

/** Past any value, checked as JSON.parse would check it. */
function skipAny(): boolean {
  const end = skipValue(buf, pos);
  if (end === -1) return false;
  pos = end;
  return true;
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
    if (!readMember(member)) return false;
    ws();
    const c = buf[pos];
    pos++;
    if (c === Ch.RBrace) return true;
    if (c !== Ch.Comma) return false;
  }
}

/** One `"key": value` member, its value handed to `member`. */
function readMember(member: (k: Key) => boolean): boolean {
  ws();
  if (!readKey()) return false;
  ws();
  if (buf[pos] !== Ch.Colon) return false;
  pos++;
  ws();
  return member(key);
}

/** A value that counts only when it is a finite number: `found` is its number or null. */
function countValue(): boolean {
  const c = buf[pos];
  found = null;
  if (c !== Ch.Minus && !isDigit(c)) return skipAny();
  const end = numberEnd(buf, pos);
  if (end === -1) return false;
  const value = numberValue(buf, pos, end);
  found = Number.isFinite(value) ? value : null;
  pos = end;
  return true;
}

let details: Slot = top;
let detailsOf: Key = Key.PromptDetails;

function detailsMember(k: Key): boolean {
  if (k !== Key.CachedTokens) return skipAny();
  if (!countValue()) return false;
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
      if (!countValue()) return false;
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
        return skipAny();
      }
      if (prompt) s.promptDetails = Details.Object;
      else s.inputDetails = Details.Object;
      details = s;
      detailsOf = k;
      return readObject(detailsMember);
    }
    default:
      return skipAny();
  }
}

/** A `usage` value for `s`: reset (the last one wins), then read when it is an object. */
function usageValue(s: Slot): boolean {
  clear(s);
  if (buf[pos] !== Ch.LBrace) return skipAny();
  s.object = true;
  slot = s;
  return readObject(usageMember);
}

function geminiMember(k: Key): boolean {
  if (k < Key.PromptTokenCount) return skipAny();
  if (!countValue()) return false;
  if (k === Key.PromptTokenCount) gemini.prompt = found;
  else if (k === Key.CandidatesTokenCount) gemini.candidates = found;
  else if (k === Key.CachedContentTokenCount) gemini.cached = found;
  else gemini.thoughts = found;
  return true;
}

/** A `usageMetadata` value: reset (the last one wins), then read when it is an object. */
function geminiValue(): boolean {
  clearGemini();
  if (buf[pos] !== Ch.LBrace) return skipAny();
  gemini.object = true;
  return readObject(geminiMember);
}

let holder: Slot = inMessage;

function holderMember(k: Key): boolean {
  return k === Key.Usage ? usageValue(holder) : skipAny();
}

function topMember(k: Key): boolean {
  if (k === Key.Usage) return usageValue(top);
  if (k === Key.UsageMetadata) return geminiValue();
  if (k === Key.Message || k === Key.Response) {
    const s = k === Key.Message ? inMessage : inResponse;
    // A repeated `message` replaces the earlier one, usage and all.
    clear(s);
    if (buf[pos] !== Ch.LBrace) return skipAny();
    holder = s;
    return readObject(holderMember);
  }
  return skipAny();
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
 * `response.usage` and Gemini's top-level `usageMetadata` to `usage`, in that order; leaves it unchanged when the text is not one valid
 * JSON object.
 */
export function scanUsage(line: Buffer, from: number, to: number, usage: Usage): void {
  // A view that ends at `to`, so no read can run past the text.
  buf = to === line.length ? line : line.subarray(0, to);
  pos = from;
  clear(top);
  clear(inMessage);
  clear(inResponse);
  clearGemini();
  try {
    ws();
    const whole = readObject(topMember) && (ws(), pos === buf.length);
    if (!whole) return;
  } catch {
    // Never expected (an escaped key is checked before it is decoded), but the tap only reads: no throw reaches the relay.
    return;
  } finally {
    buf = EMPTY; // do not pin the socket chunk between lines
  }
  absorb(usage, top);
  absorb(usage, inMessage);
  absorb(usage, inResponse);
  if (gemini.object) applyGeminiCounts(usage, gemini);
}

const EMPTY = Buffer.alloc(0);
