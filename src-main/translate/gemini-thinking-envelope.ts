import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';

/**
 * Anthropic thinking, carried through a Gemini client. With thinking on, Anthropic refuses a tool
 * loop whose assistant turn does not start with the thinking blocks it wrote (text and signature
 * verbatim). A Gemini client drops thought parts from its history (Gemini CLI does) but keeps a
 * call's `thoughtSignature`, which is opaque to it by design. So the thinking blocks that come
 * before a tool call travel as that call's signature: canonical base64 of a marker and their JSON
 * (SDKs that hold the signature as bytes, the Python one, re-encode it unchanged). A signature
 * that is not one (Google's own, or Gemini CLI's stand-in) reads as null.
 */
const MARK = 'leeway';
/** `MARK` in base64: 6 bytes, so every envelope starts with these characters. */
const MARK_BASE64 = Buffer.from(MARK, 'utf8').toString('base64');

/** A block Anthropic can verify: thinking with its signature (an empty one is another model's), or redacted. */
function isThinking(block: Json): boolean {
  if (block.type === 'thinking') return asString(block.thinking) !== null && Boolean(asString(block.signature));
  return block.type === 'redacted_thinking' && Boolean(asString(block.data));
}

/** Thinking and redacted_thinking blocks → a thoughtSignature (null when there are none). */
export function envelopeOf(blocks: readonly Json[]): string | null {
  const kept = blocks
    .filter(isThinking)
    .map((block) =>
      block.type === 'thinking'
        ? { type: 'thinking', thinking: block.thinking, signature: block.signature }
        : { type: 'redacted_thinking', data: block.data },
    );
  if (kept.length === 0) return null;
  return Buffer.from(MARK + JSON.stringify(kept), 'utf8').toString('base64');
}

/** The thinking blocks a thoughtSignature carries, or null when it is not an envelope. */
export function blocksOfEnvelope(signature: string | null): Json[] | null {
  if (signature === null || !signature.startsWith(MARK_BASE64)) return null;
  const text = Buffer.from(signature, 'base64').toString('utf8');
  if (!text.startsWith(MARK)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(MARK.length));
  } catch {
    return null;
  }
  const list = asArray(parsed);
  if (!list) return null;
  const blocks: Json[] = [];
  for (const item of list) {
    const block = asObject(item);
    if (block && isThinking(block)) blocks.push(block);
  }
  return blocks.length > 0 ? blocks : null;
}
