import type { Json, TranslateRefusal } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import type { ContentsOut } from './gemini-contents-out';
import { splitToolId } from './gemini-ids';
import { done, refuse, type Step } from './refusal';
import { REQUEST_TEXT_JOIN } from './text-parts';

/**
 * Anthropic `messages` → Gemini contents. A tool_result becomes a functionResponse named after its
 * tool_use (`{output}`, or `{error}` when `is_error`, as Google documents); its images follow the
 * responses as inlineData parts of the same turn, which every Gemini model reads. Images and PDFs
 * are inlineData; a plain-text document is text. Thinking blocks are Anthropic's and verified by
 * Anthropic only: they are left out. A tool_use id carries its Gemini signature (gemini-ids.ts).
 */
export function appendContentsFromAnthropic(
  messages: unknown[],
  dropped: Set<string>,
  out: ContentsOut,
): TranslateRefusal | null {
  const names = new Map<string, string>();
  for (let i = 0; i < messages.length; i++) {
    const field = `messages[${i}]`;
    const message = asObject(messages[i]);
    if (!message) return { field, message: 'a message must be an object' };
    const role = message.role === 'user' ? 'user' : message.role === 'assistant' ? 'model' : null;
    if (role === null)
      return { field: `${field}.role`, message: `role "${String(message.role)}" cannot be translated to Gemini` };
    const direct = asString(message.content);
    if (direct !== null) {
      out.push(role, direct.length > 0 ? [{ text: direct }] : []);
      continue;
    }
    const blocks = asArray(message.content);
    if (!blocks) return { field: `${field}.content`, message: 'content must be a string or an array of blocks' };
    const parts: Json[] = [];
    for (let j = 0; j < blocks.length; j++) {
      const blockField = `${field}.content[${j}]`;
      const block = asObject(blocks[j]);
      if (!block) return { field: blockField, message: 'a content block must be an object' };
      if (block.cache_control !== undefined) dropped.add('cache_control');
      const step = role === 'user' ? userPart(block, blockField, names) : modelPart(block, blockField, names, dropped);
      if (!step.ok) return step.refusal;
      parts.push(...step.value);
    }
    if (role === 'model' && parts.length === 0) dropped.add('empty assistant messages');
    out.push(role, parts);
  }
  return null;
}

function userPart(block: Json, field: string, names: Map<string, string>): Step<Json[]> {
  switch (block.type) {
    case 'text': {
      // An empty text part is no content to Gemini; Anthropic clients rarely send one.
      const text = asString(block.text) ?? '';
      return done(text.length > 0 ? [{ text }] : []);
    }
    case 'image':
    case 'document':
      return mediaPart(block, field);
    case 'tool_result':
      return resultParts(block, field, names);
    default:
      return refuse(`${field}.type`, `content block "${String(block.type)}" cannot be translated to Gemini`);
  }
}

function modelPart(block: Json, field: string, names: Map<string, string>, dropped: Set<string>): Step<Json[]> {
  switch (block.type) {
    case 'text': {
      const text = asString(block.text) ?? '';
      return done(text.length > 0 ? [{ text }] : []);
    }
    case 'tool_use': {
      const clientId = asString(block.id);
      const name = asString(block.name);
      if (!clientId || !name) return refuse(field, 'a tool_use block needs an id and a name');
      names.set(clientId, name);
      const { id, signature } = splitToolId(clientId);
      const part: Json = { functionCall: { id, name, args: asObject(block.input) ?? {} } };
      if (signature !== null) part.thoughtSignature = signature;
      return done([part]);
    }
    case 'thinking':
    case 'redacted_thinking':
      dropped.add(`${String(block.type)} blocks`);
      return done([]);
    default:
      return refuse(`${field}.type`, `content block "${String(block.type)}" cannot be translated to Gemini`);
  }
}

/** An image or document block → inlineData (base64), or text for a plain-text document. */
function mediaPart(block: Json, field: string): Step<Json[]> {
  const source = asObject(block.source);
  if (source?.type === 'base64') {
    const mimeType = asString(source.media_type);
    const data = asString(source.data);
    if (!mimeType || data === null) return refuse(`${field}.source`, 'a base64 source needs media_type and data');
    return done([{ inlineData: { mimeType, data } }]);
  }
  if (source?.type === 'text' && block.type === 'document') return done([{ text: asString(source.data) ?? '' }]);
  return refuse(`${field}.source.type`, `a "${String(source?.type)}" source cannot be sent to a Gemini connection`);
}

function resultParts(block: Json, field: string, names: Map<string, string>): Step<Json[]> {
  const clientId = asString(block.tool_use_id);
  if (!clientId) return refuse(`${field}.tool_use_id`, 'a tool_result needs a tool_use_id');
  const name = names.get(clientId);
  if (name === undefined) return refuse(`${field}.tool_use_id`, 'no earlier tool_use has this id');
  let text = asString(block.content);
  const media: Json[] = [];
  if (text === null) {
    const texts: string[] = [];
    const items = asArray(block.content) ?? [];
    for (let k = 0; k < items.length; k++) {
      const item = asObject(items[k]);
      if (item?.type === 'text') texts.push(asString(item.text) ?? '');
      else if (item?.type === 'image' || item?.type === 'document') {
        const converted = mediaPart(item, `${field}.content[${k}]`);
        if (!converted.ok) return converted;
        media.push(...converted.value);
      } else
        return refuse(`${field}.content[${k}].type`, `"${String(item?.type)}" cannot be a Gemini function response`);
    }
    text = texts.join(REQUEST_TEXT_JOIN);
  }
  const response = block.is_error === true ? { error: text } : { output: text };
  return done([{ functionResponse: { id: splitToolId(clientId).id, name, response } }, ...media]);
}
