import { asArray, asObject, asString } from './json-narrow';

/**
 * Adjacent request text blocks become one string joined by a blank line: OpenAI-compatible servers
 * differ in which content-part arrays they accept, every one accepts a string. Answer text blocks
 * (split by citations mid-sentence) join with nothing instead.
 */
export const REQUEST_TEXT_JOIN = '\n\n';

/**
 * The text of a content value that is a string or an array of `{type:"text", text}` parts (both
 * formats spell a text part the same way). Null when some part is not text: the caller refuses.
 */
export function textOfContent(content: unknown, join: string): string | null {
  const direct = asString(content);
  if (direct !== null) return direct;
  if (content == null) return '';
  const parts = asArray(content);
  if (!parts) return null;
  let text = '';
  for (let i = 0; i < parts.length; i++) {
    const part = asObject(parts[i]);
    const piece = part && part.type === 'text' ? asString(part.text) : null;
    if (piece === null) return null;
    text = i === 0 ? piece : text + join + piece;
  }
  return text;
}

/** Index of the first part of `content` that is not a text part, for naming it in a refusal. */
export function firstNonTextPart(content: unknown): number {
  const parts = asArray(content) ?? [];
  for (let i = 0; i < parts.length; i++) {
    if (asObject(parts[i])?.type !== 'text') return i;
  }
  return 0;
}
