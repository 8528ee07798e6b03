import { asArray, asObject, asString } from './json-narrow';
import type { Json } from './translate-types';

/** Roughly four characters of English or code per token (Anthropic's and OpenAI's own rule of thumb). */
const CHARS_PER_TOKEN = 4;
/** Anthropic bills an image at about (w × h) / 750 tokens, at most ~1 600; the size is not known here. */
const IMAGE_TOKENS = 1_600;
/** Per-message framing (role markers) every tokenizer adds. */
const MESSAGE_OVERHEAD = 3;

/**
 * An estimate of a Messages request's input tokens for a connection that cannot count them (an
 * OpenAI-format upstream, or an Anthropic one without count_tokens): text by characters, images
 * by their ceiling, tools by their JSON. Marked as an estimate in the answer (issue 12 §3).
 */
export function estimateInputTokens(body: Json): number {
  let chars = 0;
  let tokens = 0;
  const text = (value: unknown) => {
    const s = asString(value);
    if (s !== null) chars += s.length;
  };
  const blocks = (content: unknown) => {
    if (typeof content === 'string') return text(content);
    for (const raw of asArray(content) ?? []) {
      const block = asObject(raw);
      if (!block) continue;
      switch (block.type) {
        case 'text':
          text(block.text);
          break;
        case 'image':
        case 'document':
          tokens += IMAGE_TOKENS;
          break;
        case 'tool_use':
          chars += JSON.stringify(block.input ?? {}).length + (asString(block.name)?.length ?? 0);
          break;
        case 'tool_result':
          blocks(block.content);
          break;
        case 'thinking':
          text(block.thinking);
          break;
        default:
          break;
      }
    }
  };
  blocks(body.system);
  for (const raw of asArray(body.messages) ?? []) {
    const message = asObject(raw);
    if (!message) continue;
    tokens += MESSAGE_OVERHEAD;
    blocks(message.content);
  }
  for (const tool of asArray(body.tools) ?? []) chars += JSON.stringify(tool).length;
  return tokens + Math.ceil(chars / CHARS_PER_TOKEN);
}
