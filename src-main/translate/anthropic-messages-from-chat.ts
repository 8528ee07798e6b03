import type { Json, TranslateRefusal } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { anthropicImageFromChat } from './image-parts';
import { done, refuse, type Step } from './refusal';
import { REQUEST_TEXT_JOIN, firstNonTextPart, textOfContent } from './text-parts';

/**
 * Chat `messages` → Anthropic `messages` (appended to `out`) and `system` texts. System and
 * developer messages move to `system` wherever they stand; consecutive turns of one role merge
 * (Anthropic requires user and assistant to alternate), so `role:"tool"` messages become one user
 * turn of `tool_result` blocks, followed by the user's next words.
 */
export function appendAnthropicMessages(
  messages: unknown[],
  dropped: Set<string>,
  system: string[],
  out: Json[],
): TranslateRefusal | null {
  for (let i = 0; i < messages.length; i++) {
    const field = `messages[${i}]`;
    const message = asObject(messages[i]);
    if (!message) return { field, message: 'a message must be an object' };
    if (message.name !== undefined) dropped.add('messages[].name');
    let refusal: TranslateRefusal | null = null;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOfContent(message.content, REQUEST_TEXT_JOIN);
        if (text === null) {
          return {
            field: `${field}.content[${firstNonTextPart(message.content)}]`,
            message: 'system content must be text',
          };
        }
        if (text.length > 0) system.push(text);
        break;
      }
      case 'user':
        refusal = appendUser(message.content, field, dropped, out);
        break;
      case 'assistant':
        refusal = appendAssistant(message, field, dropped, out);
        break;
      case 'tool':
        refusal = appendToolResult(message, field, out);
        break;
      default:
        return { field: `${field}.role`, message: `role "${String(message.role)}" cannot be translated to Anthropic` };
    }
    if (refusal) return refusal;
  }
  return null;
}

/** Adds a turn, merging it into the previous one when the role repeats. */
function pushTurn(out: Json[], role: string, content: string | Json[]): void {
  const last = out[out.length - 1];
  if (!last || last.role !== role) {
    out.push({ role, content });
    return;
  }
  last.content = [...asBlocks(last.content), ...asBlocks(content)];
}

function asBlocks(content: unknown): Json[] {
  const text = asString(content);
  if (text === null) return (asArray(content) ?? []) as Json[];
  return text.length > 0 ? [{ type: 'text', text }] : [];
}

function appendUser(content: unknown, field: string, dropped: Set<string>, out: Json[]): TranslateRefusal | null {
  const direct = asString(content);
  if (direct !== null) {
    pushTurn(out, 'user', direct);
    return null;
  }
  const parts = asArray(content);
  if (!parts) return { field: `${field}.content`, message: 'content must be a string or an array of parts' };
  const blocks: Json[] = [];
  for (let j = 0; j < parts.length; j++) {
    const partField = `${field}.content[${j}]`;
    const part = asObject(parts[j]);
    if (!part) return { field: partField, message: 'a content part must be an object' };
    if (part.type === 'text') blocks.push({ type: 'text', text: asString(part.text) ?? '' });
    else if (part.type === 'image_url') {
      const image = anthropicImageFromChat(part, partField, dropped);
      if (!image.ok) return image.refusal;
      blocks.push(image.value);
    } else {
      return { field: `${partField}.type`, message: `content part "${String(part.type)}" cannot be sent to Anthropic` };
    }
  }
  pushTurn(out, 'user', blocks);
  return null;
}

function appendAssistant(message: Json, field: string, dropped: Set<string>, out: Json[]): TranslateRefusal | null {
  if (message.function_call !== undefined && message.function_call !== null) {
    return { field: `${field}.function_call`, message: 'legacy function_call is not translated; use tool_calls' };
  }
  const blocks: Json[] = [];
  const reasoning = asString(message.reasoning_content);
  if (reasoning) {
    // Anthropic verifies thinking it is sent back; unsigned reasoning (other models') would be a 400.
    const signature = asString(message.reasoning_signature);
    if (signature) blocks.push({ type: 'thinking', thinking: reasoning, signature });
    else dropped.add('reasoning_content');
  }
  const direct = asString(message.content);
  if (direct === null && message.content != null) {
    const parts = asArray(message.content);
    if (!parts) return { field: `${field}.content`, message: 'content must be a string or an array of parts' };
    for (let j = 0; j < parts.length; j++) {
      const part = asObject(parts[j]);
      const text =
        part?.type === 'text' ? asString(part.text) : part?.type === 'refusal' ? asString(part.refusal) : null;
      if (text === null) return { field: `${field}.content[${j}].type`, message: 'assistant content must be text' };
      if (text.length > 0) blocks.push({ type: 'text', text });
    }
  }
  const calls = asArray(message.tool_calls) ?? [];
  if (direct && (calls.length > 0 || blocks.length > 0)) blocks.push({ type: 'text', text: direct });
  for (let k = 0; k < calls.length; k++) {
    const block = toolUseFromCall(calls[k], `${field}.tool_calls[${k}]`);
    if (!block.ok) return block.refusal;
    blocks.push(block.value);
  }
  if (blocks.length > 0) pushTurn(out, 'assistant', blocks);
  else if (direct) pushTurn(out, 'assistant', direct);
  // An empty assistant turn is a 400 on Anthropic; leaving it out keeps the conversation intact.
  else dropped.add('empty assistant messages');
  return null;
}

function toolUseFromCall(value: unknown, field: string): Step<Json> {
  const call = asObject(value);
  const fn = asObject(call?.function);
  const id = asString(call?.id);
  const name = asString(fn?.name);
  if (!call || !fn || !id || !name) return refuse(field, 'a tool call needs an id and a function name');
  const text = asString(fn.arguments) ?? '';
  let input: unknown = {};
  if (text.trim().length > 0) {
    try {
      input = JSON.parse(text);
    } catch {
      return refuse(`${field}.function.arguments`, 'tool call arguments are not valid JSON');
    }
  }
  if (!asObject(input)) return refuse(`${field}.function.arguments`, 'tool call arguments must be a JSON object');
  return done({ type: 'tool_use', id, name, input });
}

function appendToolResult(message: Json, field: string, out: Json[]): TranslateRefusal | null {
  const id = asString(message.tool_call_id);
  if (!id) return { field: `${field}.tool_call_id`, message: 'a tool message needs a tool_call_id' };
  const text = textOfContent(message.content, REQUEST_TEXT_JOIN);
  if (text === null) {
    return {
      field: `${field}.content[${firstNonTextPart(message.content)}].type`,
      message: 'tool content must be text',
    };
  }
  pushTurn(out, 'user', [{ type: 'tool_result', tool_use_id: id, content: text }]);
  return null;
}
