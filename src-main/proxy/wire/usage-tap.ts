import { createDataLineReader } from '../../kernel/sse/data-lines';
import type { ChunkObserver } from './chunk-observer';
import { scanUsage } from './usage-scan';
import { absorbGeminiUsage } from './gemini-usage';

/** Token counts read from a response as it passes; null where the upstream did not say. */
export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
}

/** An observer of the upstream's reads (it passes each on as it came) that reads their usage. */
export interface UsageTap extends ChunkObserver {
  finish(): Usage;
}

/** A JSON body is parsed once at the end; past this it is not kept (a bigger parse would stall the loop). */
const JSON_CAP = 1024 * 1024;
/** What is kept of an unfinished SSE data line that does not mention usage by then; longer ones are skipped. */
export const SSE_LINE_CAP = 64 * 1024;
/** The most kept of a data line that mentions usage (usage events are small; this is generous). */
export const SSE_USAGE_LINE_CAP = 1024 * 1024;

/**
 * What a usage event is searched by: `usage`, which also finds Gemini's `usageMetadata` (a bare
 * `usage"` would not); it starts with the rare `u`, as the native search runs from the needle's
 * first byte; a small read is searched for its `g` alone (rarer still in a delta event).
 */
const USAGE = Buffer.from('usage');
const USAGE_RARE_AT = 3;
/** Where an event's JSON starts in its line: after `data:` (a space after it is JSON whitespace). */
const DATA_PREFIX = 5;

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

/**
 * Reads usage without holding a stream: of SSE only the data lines that mention usage are read
 * (the SSE reader's data-lines mode, keeping at most a bounded unfinished line); JSON bodies are
 * kept up to a cap and parsed once at the end.
 */
export function createUsageTap(contentType: string | undefined): UsageTap {
  const usage: Usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
  const isSse = contentType?.includes('text/event-stream') ?? false;
  const isJson = !isSse && (contentType?.includes('json') ?? false);
  // `usage`, Anthropic message_start's `message.usage`, Responses response.completed's `response.usage`,
  // Gemini's `usageMetadata` (each chunk may carry one: the last wins),
  // read from the line's bytes as JSON.parse would read them (usage-scan.ts); a malformed event is the
  // client's to see, the tap only reads. A CR before the line's end is JSON whitespace.
  const sse = isSse
    ? createDataLineReader({
        needle: USAGE,
        rareAt: USAGE_RARE_AT,
        lineCap: SSE_LINE_CAP,
        mentionCap: SSE_USAGE_LINE_CAP,
        onLine: (line) => scanUsage(line, DATA_PREFIX, line.length, usage),
      })
    : null;
  let jsonChunks: Buffer[] = [];
  let jsonSize = 0;

  return {
    onChunk(chunk) {
      if (sse) sse.push(chunk);
      else if (isJson && jsonSize + chunk.length <= JSON_CAP) {
        jsonChunks.push(chunk);
        jsonSize += chunk.length;
      } else if (isJson) {
        // Too big to parse without stalling everyone: give up on this body's usage, free what was kept.
        jsonChunks = [];
        jsonSize = JSON_CAP + 1;
      }
      return chunk;
    },
    onEnd: () => null,
    finish() {
      if (isJson && jsonChunks.length > 0) {
        try {
          // A small answer is one chunk: decoded in place, not copied first.
          const whole = jsonChunks.length === 1 ? jsonChunks[0] : Buffer.concat(jsonChunks, jsonSize);
          const body = asObject(JSON.parse(whole?.toString('utf8') ?? ''));
          absorbUsage(usage, body?.usage);
          absorbGeminiUsage(usage, body?.usageMetadata);
        } catch {
          // Not JSON after all: no usage to report.
        }
      }
      return usage;
    },
  };
}
