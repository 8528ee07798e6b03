import type { Json, TranslateRefusal } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { chatImagePartFromAnthropic } from './image-parts';
import { REQUEST_TEXT_JOIN, textOfContent } from './text-parts';

/**
 * Anthropic `messages` → Chat `messages`, appended to `out`. A user turn's `tool_result` blocks
 * become `role:"tool"` messages first (Chat requires them right after the assistant's tool calls),
 * then the turn's other content as one user message. Returns the refusal, or null when done.
 */
export interface MessageOptions {
  reasoning: boolean;
  dropped: Set<string>;
}

/** Marks a failed tool run in the text, since Chat tool messages have no error flag. */
export const TOOL_ERROR_PREFIX = 'Error: ';

export function appendChatMessages(messages: unknown[], options: MessageOptions, out: Json[]): TranslateRefusal | null {
  for (let i = 0; i < messages.length; i++) {
    const field = `messages[${i}]`;
    const message = asObject(messages[i]);
    if (!message) return { field, message: 'a message must be an object' };
    let refusal: TranslateRefusal | null;
    if (message.role === 'user') refusal = appendUser(message.content, field, options, out);
    else if (message.role === 'assistant') refusal = appendAssistant(message.content, field, options, out);
    else if (message.role === 'system') refusal = appendSystem(message.content, field, out);
    else return { field: `${field}.role`, message: `role "${String(message.role)}" is not known` };
    if (refusal) return refusal;
  }
  return null;
}

function appendSystem(content: unknown, field: string, out: Json[]): TranslateRefusal | null {
  const text = textOfContent(content, REQUEST_TEXT_JOIN);
  if (text === null) return { field: `${field}.content`, message: 'a system message may hold only text' };
  out.push({ role: 'system', content: text });
  return null;
}

function unknownBlock(field: string, type: unknown): TranslateRefusal {
  if (type === 'document') {
    return {
      field: `${field}.type`,
      message: 'document blocks (PDF, plain-text documents) have no Chat Completions equivalent',
    };
  }
  return {
    field: `${field}.type`,
    message: `content block "${String(type)}" cannot be translated to Chat Completions`,
  };
}

function noteCacheControl(block: Json, dropped: Set<string>): void {
  if (block.cache_control !== undefined) dropped.add('cache_control');
}

function appendUser(content: unknown, field: string, options: MessageOptions, out: Json[]): TranslateRefusal | null {
  const direct = asString(content);
  if (direct !== null) {
    out.push({ role: 'user', content: direct });
    return null;
  }
  const blocks = asArray(content);
  if (!blocks) return { field: `${field}.content`, message: 'content must be a string or an array of blocks' };
  const parts: Json[] = [];
  let hadToolResult = false;
  for (let j = 0; j < blocks.length; j++) {
    const blockField = `${field}.content[${j}]`;
    const block = asObject(blocks[j]);
    if (!block) return { field: blockField, message: 'a content block must be an object' };
    noteCacheControl(block, options.dropped);
    if (block.type === 'text') {
      parts.push({ type: 'text', text: asString(block.text) ?? '' });
    } else if (block.type === 'image') {
      const image = chatImagePartFromAnthropic(block, blockField);
      if (!image.ok) return image.refusal;
      parts.push(image.value);
    } else if (block.type === 'tool_result') {
      const refusal = appendToolResult(block, blockField, parts, out);
      if (refusal) return refusal;
      hadToolResult = true;
    } else {
      return unknownBlock(blockField, block.type);
    }
  }
  if (parts.length > 0 || !hadToolResult) {
    const allText = parts.every((part) => part.type === 'text');
    out.push({ role: 'user', content: allText ? joinTextParts(parts) : parts });
  }
  return null;
}

function joinTextParts(parts: Json[]): string {
  let text = '';
  for (let k = 0; k < parts.length; k++) text += (k === 0 ? '' : REQUEST_TEXT_JOIN) + String(parts[k]?.text ?? '');
  return text;
}

/**
 * One `tool_result` → a `role:"tool"` message. Chat tool messages carry text only, so images in a
 * result (Claude Code's Read of a picture) move into the user message that follows.
 */
function appendToolResult(block: Json, field: string, carried: Json[], out: Json[]): TranslateRefusal | null {
  const id = asString(block.tool_use_id);
  if (!id) return { field: `${field}.tool_use_id`, message: 'a tool_result needs a tool_use_id' };
  let text = asString(block.content);
  if (text === null) {
    const items = asArray(block.content) ?? [];
    const texts: string[] = [];
    for (let k = 0; k < items.length; k++) {
      const item = asObject(items[k]);
      if (item?.type === 'text') texts.push(asString(item.text) ?? '');
      else if (item?.type === 'image') {
        const image = chatImagePartFromAnthropic(item, `${field}.content[${k}]`);
        if (!image.ok) return image.refusal;
        carried.push(image.value);
      } else return unknownBlock(`${field}.content[${k}]`, item?.type);
    }
    text = texts.join(REQUEST_TEXT_JOIN);
  }
  out.push({ role: 'tool', tool_call_id: id, content: block.is_error === true ? TOOL_ERROR_PREFIX + text : text });
  return null;
}

function appendAssistant(
  content: unknown,
  field: string,
  options: MessageOptions,
  out: Json[],
): TranslateRefusal | null {
  const direct = asString(content);
  if (direct !== null) {
    out.push({ role: 'assistant', content: direct });
    return null;
  }
  const blocks = asArray(content);
  if (!blocks) return { field: `${field}.content`, message: 'content must be a string or an array of blocks' };
  let text: string | null = null;
  let reasoning: string | null = null;
  const toolCalls: Json[] = [];
  for (let j = 0; j < blocks.length; j++) {
    const blockField = `${field}.content[${j}]`;
    const block = asObject(blocks[j]);
    if (!block) return { field: blockField, message: 'a content block must be an object' };
    noteCacheControl(block, options.dropped);
    if (block.type === 'text') {
      const piece = asString(block.text) ?? '';
      text = text === null ? piece : text + REQUEST_TEXT_JOIN + piece;
    } else if (block.type === 'tool_use') {
      const id = asString(block.id);
      const name = asString(block.name);
      if (!id || !name) return { field: blockField, message: 'a tool_use block needs an id and a name' };
      const args = JSON.stringify(block.input ?? {});
      toolCalls.push({ id, type: 'function', function: { name, arguments: args } });
    } else if (block.type === 'thinking') {
      if (!options.reasoning) options.dropped.add('thinking blocks');
      else {
        const piece = asString(block.thinking) ?? '';
        reasoning = reasoning === null ? piece : reasoning + REQUEST_TEXT_JOIN + piece;
      }
    } else if (block.type === 'redacted_thinking') {
      options.dropped.add('redacted_thinking blocks');
    } else {
      return unknownBlock(blockField, block.type);
    }
  }
  const message: Json = { role: 'assistant', content: text ?? (toolCalls.length > 0 ? null : '') };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== null) message.reasoning_content = reasoning;
  out.push(message);
  return null;
}
