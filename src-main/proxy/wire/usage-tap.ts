import { scanUsage } from './usage-scan';

/** Token counts read from a response as it passes; null where the upstream did not say. */
export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
}

export interface UsageTap {
  push(chunk: Buffer): void;
  finish(): Usage;
}

/** A JSON body is parsed once at the end; past this it is not kept (a bigger parse would stall the loop). */
const JSON_CAP = 1024 * 1024;
/** What is kept of an unfinished SSE data line that does not mention usage by then; longer ones are skipped. */
export const SSE_LINE_CAP = 64 * 1024;
/** The most kept of a data line that mentions usage (usage events are small; this is generous). */
export const SSE_USAGE_LINE_CAP = 1024 * 1024;

const NEWLINE = 0x0a;
const DATA = Buffer.from('data:');
/**
 * What a usage event is searched by: `usage"` rather than `"usage"`, because the native search runs
 * from the needle's first byte, and `"` is the commonest byte in JSON while `u` is rare in it.
 */
const USAGE = Buffer.from('usage"');
/** Up to this many bytes, `usage"` is found by its `g` (see findUsage); past it by one search for all six. */
const BY_BYTE_MAX = 256;
const G = 0x67;

/**
 * Where `usage"` starts in `chunk` from `from`, or -1. A small read (one delta event) is searched
 * for the needle's rare `g` and checked around it: a native search for one byte is several times
 * cheaper than one for a six-byte needle, and a delta event holds few if any `g`s.
 */
function findUsage(chunk: Buffer, from: number): number {
  if (chunk.length - from > BY_BYTE_MAX) return chunk.indexOf(USAGE, from);
  for (let g = chunk.indexOf(G, from + 3); g !== -1; g = chunk.indexOf(G, g + 1))
    if (
      chunk[g - 3] === 0x75 &&
      chunk[g - 2] === 0x73 &&
      chunk[g - 1] === 0x61 &&
      chunk[g + 1] === 0x65 &&
      chunk[g + 2] === 0x22
    )
      return g - 3;
  return -1;
}

type Json = Record<string, unknown>;

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/**
 * Merges one parsed `usage` object (Anthropic or OpenAI names) into the running totals: a JSON body's,
 * and the reading usage-scan.ts reproduces from an event's bytes (its test compares the two).
 */
export function absorbUsage(usage: Usage, raw: unknown): void {
  const u = asObject(raw);
  if (!u) return;
  usage.inputTokens = num(u.input_tokens) ?? num(u.prompt_tokens) ?? usage.inputTokens;
  usage.outputTokens = num(u.output_tokens) ?? num(u.completion_tokens) ?? usage.outputTokens;
  usage.cacheReadTokens = num(u.cache_read_input_tokens) ?? usage.cacheReadTokens;
  usage.cacheWriteTokens = num(u.cache_creation_input_tokens) ?? usage.cacheWriteTokens;
  const details = asObject(u.prompt_tokens_details) ?? asObject(u.input_tokens_details);
  if (details) usage.cacheReadTokens = num(details.cached_tokens) ?? usage.cacheReadTokens;
}

/** `data:`, byte by byte (cheaper than a native compare for five bytes). */
function startsWithData(line: Buffer): boolean {
  return line[0] === 0x64 && line[1] === 0x61 && line[2] === 0x74 && line[3] === 0x61 && line[4] === 0x3a;
}

/** One complete SSE line (without its newline). Only `data:` lines that mention usage are decoded. */
function absorbLine(usage: Usage, line: Buffer, mentions: boolean): void {
  if (line.length > SSE_USAGE_LINE_CAP || line.length < DATA.length) return;
  if (!startsWithData(line)) return;
  if (!mentions && line.indexOf(USAGE, DATA.length) === -1) return;
  // `usage`, Anthropic message_start's `message.usage`, Responses response.completed's `response.usage`,
  // read from the bytes as JSON.parse would read them (usage-scan.ts); a malformed event is the client's
  // to see, the tap only reads. The space after `data:` and a CR before the newline are JSON whitespace.
  scanUsage(line, DATA.length, line.length, usage);
}

/**
 * Hands on the SSE lines that can carry usage, never decoding a line until it is whole (the newline
 * byte never sits inside a UTF-8 character). Within a chunk only lines that mention `"usage"` are
 * looked at: one native search finds them, so the many delta lines of a stream cost nothing each.
 * A line cut by the chunk's end is kept only while it can still be a usage event: it must start
 * with `data:` and stay under the caps.
 */
function createSseLines(onLine: (line: Buffer, mentionsUsage: boolean) => void): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let size = 0;
  /** An unfinished line is carried over from an earlier chunk (possibly being skipped). */
  let open = false;
  let skipping = false;
  let mentionsUsage = false;
  let prefixChecked = false;

  const reset = () => {
    parts = [];
    size = 0;
    open = false;
    skipping = false;
    mentionsUsage = false;
    prefixChecked = false;
  };
  /** Adds a piece of the unfinished line, or gives the line up when it cannot matter. */
  const keep = (piece: Buffer) => {
    open = true;
    if (skipping) return;
    const total = size + piece.length;
    if (total > SSE_LINE_CAP && !mentionsUsage) {
      // One native search over at most the cap plus this piece, done once per line.
      mentionsUsage = Buffer.concat([...parts, piece], total).includes(USAGE);
      if (!mentionsUsage) return void (skipping = true);
    }
    if (total > SSE_USAGE_LINE_CAP) return void (skipping = true);
    parts.push(Buffer.from(piece)); // a copy: a slice would pin the whole socket chunk
    size = total;
    if (!prefixChecked && size >= DATA.length) {
      prefixChecked = true;
      const head = parts.length === 1 ? (parts[0] ?? piece) : Buffer.concat(parts, size);
      if (!startsWithData(head)) skipping = true;
    }
  };

  return (chunk) => {
    let start = 0;
    if (open) {
      const newline = chunk.indexOf(NEWLINE);
      if (newline === -1) return keep(chunk);
      keep(chunk.subarray(0, newline));
      if (!skipping && size > 0) onLine(parts.length === 1 ? (parts[0] ?? chunk) : Buffer.concat(parts, size), false);
      reset();
      start = newline + 1;
    }
    // Reads usually end on a line end: then no search is needed to find it.
    const lastNewline = chunk[chunk.length - 1] === NEWLINE ? chunk.length - 1 : chunk.lastIndexOf(NEWLINE);
    if (lastNewline >= start) {
      // The whole lines of this chunk: only those that mention usage are handed on.
      let at = findUsage(chunk, start);
      while (at !== -1 && at < lastNewline) {
        const lineStart = Math.max(start, chunk.lastIndexOf(NEWLINE, at) + 1);
        const lineEnd = chunk.indexOf(NEWLINE, at);
        onLine(chunk.subarray(lineStart, lineEnd), true);
        at = findUsage(chunk, lineEnd + 1);
      }
      start = lastNewline + 1;
    }
    if (start < chunk.length) keep(chunk.subarray(start));
  };
}

/**
 * Reads usage without holding a stream: SSE is scanned line by line keeping only a bounded,
 * unfinished line; JSON bodies are kept up to a cap and parsed once at the end.
 */
export function createUsageTap(contentType: string | undefined): UsageTap {
  const usage: Usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
  const isSse = contentType?.includes('text/event-stream') ?? false;
  const isJson = !isSse && (contentType?.includes('json') ?? false);
  const pushSse = isSse ? createSseLines((line, mentions) => absorbLine(usage, line, mentions)) : null;
  let jsonChunks: Buffer[] = [];
  let jsonSize = 0;

  return {
    push(chunk) {
      if (pushSse) pushSse(chunk);
      else if (isJson && jsonSize + chunk.length <= JSON_CAP) {
        jsonChunks.push(chunk);
        jsonSize += chunk.length;
      } else if (isJson) {
        // Too big to parse without stalling everyone: give up on this body's usage, free what was kept.
        jsonChunks = [];
        jsonSize = JSON_CAP + 1;
      }
    },
    finish() {
      if (isJson && jsonChunks.length > 0) {
        try {
          // A small answer is one chunk: decoded in place, not copied first.
          const whole = jsonChunks.length === 1 ? jsonChunks[0] : Buffer.concat(jsonChunks, jsonSize);
          absorbUsage(usage, asObject(JSON.parse(whole?.toString('utf8') ?? ''))?.usage);
        } catch {
          // Not JSON after all: no usage to report.
        }
      }
      return usage;
    },
  };
}
