import { StringDecoder } from 'node:string_decoder';

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

const JSON_CAP = 4 * 1024 * 1024;

type Json = Record<string, unknown>;

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** Merges one `usage` object (Anthropic or OpenAI names) into the running totals. */
function absorb(usage: Usage, raw: unknown): void {
  const u = asObject(raw);
  if (!u) return;
  usage.inputTokens = num(u.input_tokens) ?? num(u.prompt_tokens) ?? usage.inputTokens;
  usage.outputTokens = num(u.output_tokens) ?? num(u.completion_tokens) ?? usage.outputTokens;
  usage.cacheReadTokens = num(u.cache_read_input_tokens) ?? usage.cacheReadTokens;
  usage.cacheWriteTokens = num(u.cache_creation_input_tokens) ?? usage.cacheWriteTokens;
  const details = asObject(u.prompt_tokens_details);
  if (details) usage.cacheReadTokens = num(details.cached_tokens) ?? usage.cacheReadTokens;
}

function absorbEvent(usage: Usage, data: string): void {
  // Only events that mention usage are parsed: deltas with text are the bulk and are skipped cheaply.
  if (!data.includes('"usage"')) return;
  try {
    const event = asObject(JSON.parse(data));
    if (!event) return;
    absorb(usage, event.usage);
    absorb(usage, asObject(event.message)?.usage); // Anthropic message_start
  } catch {
    // A malformed event is the client's to see; the tap only reads.
  }
}

/**
 * Reads usage without holding a stream: SSE is scanned line by line keeping only the unfinished
 * tail; JSON bodies are kept up to a cap and parsed once at the end.
 */
export function createUsageTap(contentType: string | undefined): UsageTap {
  const usage: Usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
  const isSse = contentType?.includes('text/event-stream') ?? false;
  const isJson = !isSse && (contentType?.includes('json') ?? false);
  let tail = '';
  // A multi-byte character may straddle two chunks; the decoder holds its first half back.
  const decoder = new StringDecoder('utf8');
  const jsonChunks: Buffer[] = [];
  let jsonSize = 0;

  return {
    push(chunk) {
      if (isSse) {
        const text = tail + decoder.write(chunk);
        let start = 0;
        let newline = text.indexOf('\n', start);
        while (newline !== -1) {
          if (text.startsWith('data:', start)) absorbEvent(usage, text.slice(start + 5, newline).trim());
          start = newline + 1;
          newline = text.indexOf('\n', start);
        }
        tail = text.slice(start);
      } else if (isJson && jsonSize + chunk.length <= JSON_CAP) {
        jsonChunks.push(chunk);
        jsonSize += chunk.length;
      }
    },
    finish() {
      if (isJson && jsonChunks.length > 0) {
        try {
          absorb(usage, asObject(JSON.parse(Buffer.concat(jsonChunks, jsonSize).toString('utf8')))?.usage);
        } catch {
          // Not JSON after all: no usage to report.
        }
      }
      return usage;
    },
  };
}
