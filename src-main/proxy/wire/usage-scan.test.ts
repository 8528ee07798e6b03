import { describe, expect, it } from 'vitest';
import { absorbUsage, type Usage } from './usage-tap';
import { scanUsage } from './usage-scan';
import { absorbGeminiUsage } from './gemini-usage';

/** What the tap did before the byte walk: JSON.parse, then the three paths (absorbUsage, the JSON-body reading). */
function oracle(text: string): Usage {
  const usage: Usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
  const asObject = (v: unknown): Record<string, unknown> | null =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  try {
    const event = asObject(JSON.parse(text));
    if (event) {
      absorbUsage(usage, event.usage);
      absorbUsage(usage, asObject(event.message)?.usage);
      absorbUsage(usage, asObject(event.response)?.usage);
      absorbGeminiUsage(usage, event.usageMetadata);
    }
  } catch {
    // not JSON: no usage
  }
  return usage;
}

function scanned(text: string): Usage {
  const usage: Usage = { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
  const line = Buffer.from(`data: ${text}`);
  scanUsage(line, 5, line.length, usage);
  return usage;
}

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

const KEYS = [
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
  'type',
  'text',
  'us\\u0061ge', // the escaped spelling of usage: JSON.parse reads it as the same key
  'usage ',
];
const GEMINI_KEYS = [
  'promptTokenCount',
  'candidatesTokenCount',
  'cachedContentTokenCount',
  'thoughtsTokenCount',
  'promptT\\u006fkenCount',
  'totalTokenCount',
  'usageMetadata',
  'input_tokens',
];
const NUMBERS = ['0', '7', '-0', '-3', '12.5', '1e3', '2E-2', '1e400', '123456789012345678', '26', '0.0'];
const STRINGS = ['"x"', '"\\"usage\\":{\\"input_tokens\\":9}"', '"é中"', '"\\u00e9"', '""', '"a\\nb"'];

/** Random JSON text (always valid), repeated keys and odd whitespace included. */
function value(next: () => number, depth: number, keys: readonly string[] = KEYS): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const sp = () => pick(['', ' ', '\n', '\t', ' \r\n ']);
  const r = next();
  if (depth > 4 || r < 0.35) return pick([...NUMBERS, ...STRINGS, 'true', 'false', 'null']);
  if (r < 0.45) {
    const n = Math.floor(next() * 4);
    return `[${sp()}${Array.from({ length: n }, () => value(next, depth + 1, keys)).join(`${sp()},${sp()}`)}${sp()}]`;
  }
  const n = Math.floor(next() * 6);
  const members = Array.from({ length: n }, () => `"${pick(keys)}"${sp()}:${sp()}${value(next, depth + 1, keys)}`);
  return `{${sp()}${members.join(`${sp()},${sp()}`)}${sp()}}`;
}

/** Valid text made invalid (or not) by one small edit. */
function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1));
  switch (Math.floor(next() * 6)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return `${text.slice(0, at)}${'{}[]",:x\\'[Math.floor(next() * 10)] ?? ''}${text.slice(at)}`;
    case 2:
      return `${text.slice(0, at)}${text.slice(at + 1)}`;
    case 3:
      return text.replace('}', ',}');
    case 4:
      return `\ufeff${text}`;
    default:
      return `${text} x`;
  }
}

describe('usage from the bytes of an SSE event', () => {
  it('PROD-16: reads what JSON.parse reads from thousands of random events, valid or broken', () => {
    const next = random(42);
    let withUsage = 0;
    for (let i = 0; i < 6000; i++) {
      const usageKey = next() < 0.5 ? 'usage' : 'us\\u0061ge';
      // Bias towards the three paths so most cases carry usage somewhere.
      const shaped =
        next() < 0.6
          ? `{"type":"x","${pick3(next)}":{"a":1,"${usageKey}":${value(next, 2)}},"${usageKey}":${value(next, 2)}}`
          : value(next, 0);
      const text = next() < 0.3 ? mutate(shaped, next) : shaped;
      const expected = oracle(text);
      if (expected.inputTokens !== null || expected.outputTokens !== null || expected.cacheReadTokens !== null)
        withUsage++;
      expect(scanned(text), JSON.stringify(text)).toEqual(expected);
    }
    // The generator must really exercise usage, not only its absence.
    expect(withUsage).toBeGreaterThan(250);
  });

  it('PROD-16: reads the real shapes: Anthropic message_start and message_delta, OpenAI, Responses', () => {
    expect(
      scanned(
        '{"type":"message_start","message":{"id":"m","content":[],"usage":{"input_tokens":26,"cache_creation_input_tokens":3,"cache_read_input_tokens":5,"output_tokens":1}}}',
      ),
    ).toEqual({ inputTokens: 26, outputTokens: 1, cacheReadTokens: 5, cacheWriteTokens: 3 });
    expect(
      scanned('{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":48}}\r'),
    ).toEqual({ inputTokens: null, outputTokens: 48, cacheReadTokens: null, cacheWriteTokens: null });
    expect(
      scanned(
        '{"id":"c","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":2}}}',
      ),
    ).toEqual({ inputTokens: 9, outputTokens: 4, cacheReadTokens: 2, cacheWriteTokens: null });
    // A tool schema echoed in response.completed may name a property "usage": only response.usage counts.
    expect(
      scanned(
        '{"type":"response.completed","response":{"tools":[{"parameters":{"properties":{"usage":{"input_tokens":999}}}}],"usage":{"input_tokens":12,"output_tokens":3,"input_tokens_details":{"cached_tokens":1}}}}',
      ),
    ).toEqual({ inputTokens: 12, outputTokens: 3, cacheReadTokens: 1, cacheWriteTokens: null });
  });

  it('ISSUE-8: nesting far deeper than any stack is walked without overflowing, and read as JSON.parse reads it', () => {
    const deep = `{"usage":{"input_tokens":5},"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(scanned(deep)).toEqual(oracle(deep));
    expect(scanned(deep).inputTokens).toBe(5);
    const unclosed = `{"usage":{"input_tokens":5},"x":${'['.repeat(200_000)}}`;
    expect(scanned(unclosed).inputTokens).toBeNull();
  });
});

function pick3(next: () => number): string {
  return ['message', 'response', 'other'][Math.floor(next() * 3)] ?? 'other';
}

function pick(next: () => number, xs: readonly string[]): string {
  return xs[Math.floor(next() * xs.length)] ?? '';
}

describe('Gemini usageMetadata from the bytes of an SSE event', () => {
  it('ISSUE-23: input is the prompt less its cache reads, output counts candidates and thoughts, the last chunk wins', () => {
    expect(
      scanned(
        '{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}],"usageMetadata":{"promptTokenCount":40,"candidatesTokenCount":7,"cachedContentTokenCount":30,"thoughtsTokenCount":5,"totalTokenCount":52},"modelVersion":"gemini-2.5-flash"}',
      ),
    ).toEqual({ inputTokens: 10, outputTokens: 12, cacheReadTokens: 30, cacheWriteTokens: null });
    expect(scanned('{"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":2}}')).toEqual({
      inputTokens: 9,
      outputTokens: 2,
      cacheReadTokens: null,
      cacheWriteTokens: null,
    });
    // Only the top level counts: a nested usageMetadata (a tool argument, say) is someone's text.
    expect(scanned('{"candidates":[{"usageMetadata":{"promptTokenCount":999}}]}').inputTokens).toBeNull();
  });

  it('ISSUE-23: the fuzz reaches Gemini usage (the random test above covers the path against JSON.parse)', () => {
    const next = random(7);
    let gemini = 0;
    for (let i = 0; i < 3000; i++) {
      const key = pick(next, ['usageMetadata', 'usageMetad\\u0061ta', 'usage']);
      const shaped = `{"candidates":[],"${key}":${value(next, 2, GEMINI_KEYS)},"${key}":${value(next, 2, GEMINI_KEYS)}}`;
      const text = next() < 0.3 ? mutate(shaped, next) : shaped;
      const expected = oracle(text);
      if (expected.inputTokens !== null || expected.outputTokens !== null) gemini++;
      expect(scanned(text), text).toEqual(expected);
    }
    expect(gemini).toBeGreaterThan(100);
  });
});
