/** What one SSE event says about progress (WATCH-4). */
export interface UsefulOutput {
  /** UTF-8 bytes of assistant text in the event; 0 for heartbeats, metadata and usage. */
  bytes: number;
  /** True when the event is (part of) a tool call or reasoning: judgement is suspended. */
  protectedPhase: boolean;
}

const NOTHING: UsefulOutput = { bytes: 0, protectedPhase: false };
const PROTECTED: UsefulOutput = { bytes: 0, protectedPhase: true };
const PROTECTED_TYPE = /reasoning|thinking|tool|function_call|input_json|signature/i;

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;

/** UTF-8 length without a Buffer (engines stay platform-free): 1–4 bytes per code point. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** OpenAI Chat Completions: `choices[].delta.content`; tool calls and reasoning fields are protected. */
function chatChunk(choices: unknown[]): UsefulOutput {
  let bytes = 0;
  let guarded = false;
  for (const raw of choices) {
    const choice = asObject(raw);
    const delta = asObject(choice?.delta);
    if (!delta) {
      if (typeof choice?.text === 'string') bytes += utf8Length(choice.text);
      continue;
    }
    if (delta.tool_calls !== undefined || delta.function_call !== undefined) guarded = true;
    if (typeof delta.reasoning_content === 'string' || typeof delta.reasoning === 'string') guarded = true;
    if (typeof delta.content === 'string') bytes += utf8Length(delta.content);
    else if (typeof delta.text === 'string') bytes += utf8Length(delta.text);
  }
  return bytes > 0 ? { bytes, protectedPhase: false } : guarded ? PROTECTED : NOTHING;
}

/**
 * Classifies one SSE event by its `event:` name and `data`: text deltas of Anthropic Messages
 * (`text_delta`), OpenAI Chat Completions and Responses (`response.output_text.delta`) count;
 * empty, `[DONE]`, non-JSON, pings, usage and other metadata count 0; tool and reasoning events
 * mark the protected phase (WATCH-4).
 */
export function usefulOutputOf(eventName: string | null, data: string): UsefulOutput {
  const trimmed = data.trim();
  if (trimmed === '' || trimmed === '[DONE]' || !trimmed.startsWith('{')) return NOTHING;
  let payload: Json | null;
  try {
    payload = asObject(JSON.parse(trimmed));
  } catch {
    return NOTHING;
  }
  if (!payload) return NOTHING;
  const type = typeof payload.type === 'string' ? payload.type : (eventName ?? '');
  if (PROTECTED_TYPE.test(type)) return PROTECTED;
  if (Array.isArray(payload.choices)) return chatChunk(payload.choices);
  // Responses API: a top-level string delta (response.output_text.delta, refusal deltas).
  if (typeof payload.delta === 'string') return { bytes: utf8Length(payload.delta), protectedPhase: false };
  const delta = asObject(payload.delta);
  if (delta) {
    if (typeof delta.type === 'string' && PROTECTED_TYPE.test(delta.type)) return PROTECTED;
    if (typeof delta.text === 'string') return { bytes: utf8Length(delta.text), protectedPhase: false };
    return NOTHING;
  }
  const block = asObject(payload.content_block) ?? asObject(payload.item);
  if (block && typeof block.type === 'string' && PROTECTED_TYPE.test(block.type)) return PROTECTED;
  return NOTHING;
}
