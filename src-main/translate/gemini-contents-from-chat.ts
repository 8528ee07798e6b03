import type { Json, TranslateRefusal } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { chatCallSignature } from './gemini-answer';
import type { ContentsOut } from './gemini-contents-out';
import { splitToolId } from './gemini-ids';
import { done, refuse, type Step } from './refusal';
import { REQUEST_TEXT_JOIN, firstNonTextPart, textOfContent } from './text-parts';

/**
 * Chat `messages` → Gemini contents and system texts. System and developer messages go to
 * `systemInstruction` wherever they stand. A tool message becomes a functionResponse named after
 * the call it answers (Gemini pairs by name; Chat gives only the id), `{output: text}` as Google
 * documents it. A call's id carries its Gemini signature (gemini-ids.ts), which goes back on it.
 */
const BASE64_MARK = ';base64';

export function appendContentsFromChat(
  messages: unknown[],
  dropped: Set<string>,
  system: string[],
  out: ContentsOut,
): TranslateRefusal | null {
  const names = new Map<string, string>();
  for (let i = 0; i < messages.length; i++) {
    const field = `messages[${i}]`;
    const message = asObject(messages[i]);
    if (!message) return { field, message: 'a message must be an object' };
    if (message.name !== undefined) dropped.add('messages[].name');
    let step: Step<Json[]>;
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
        continue;
      }
      case 'user':
        step = userParts(message.content, field, dropped);
        if (step.ok) out.push('user', step.value);
        break;
      case 'assistant':
        step = modelParts(message, field, names, dropped);
        if (step.ok) out.push('model', step.value);
        break;
      case 'tool':
        step = responsePart(message, field, names);
        if (step.ok) out.push('user', step.value);
        break;
      default:
        return { field: `${field}.role`, message: `role "${String(message.role)}" cannot be translated to Gemini` };
    }
    if (!step.ok) return step.refusal;
  }
  return null;
}

function userParts(content: unknown, field: string, dropped: Set<string>): Step<Json[]> {
  const direct = asString(content);
  if (direct !== null) return done(direct.length > 0 ? [{ text: direct }] : []);
  const parts = asArray(content);
  if (!parts) return refuse(`${field}.content`, 'content must be a string or an array of parts');
  const out: Json[] = [];
  for (let j = 0; j < parts.length; j++) {
    const partField = `${field}.content[${j}]`;
    const part = asObject(parts[j]);
    if (part?.type === 'text') {
      const text = asString(part.text) ?? '';
      if (text.length > 0) out.push({ text });
    } else if (part?.type === 'image_url') {
      if (asObject(part.image_url)?.detail !== undefined) dropped.add('image_url.detail');
      const image = imagePart(part, partField);
      if (!image.ok) return image;
      out.push(image.value);
    } else return refuse(`${partField}.type`, `content part "${String(part?.type)}" cannot be sent to Gemini`);
  }
  return done(out);
}

/** A base64 data: URL → `inlineData`. Gemini reads no arbitrary URL (fileData is for its own files). */
function imagePart(part: Json, field: string): Step<Json> {
  const url = asString(asObject(part.image_url)?.url) ?? asString(part.image_url) ?? '';
  const comma = url.indexOf(',');
  const header = url.startsWith('data:') && comma > 0 ? url.slice(5, comma) : '';
  if (!header.endsWith(BASE64_MARK)) {
    return refuse(`${field}.image_url.url`, 'only base64 data: URLs can be sent to a Gemini connection');
  }
  return done({ inlineData: { mimeType: header.slice(0, -BASE64_MARK.length), data: url.slice(comma + 1) } });
}

function modelParts(message: Json, field: string, names: Map<string, string>, dropped: Set<string>): Step<Json[]> {
  if (message.function_call != null) return refuse(`${field}.function_call`, 'legacy function_call is not translated');
  if (message.reasoning_content != null || message.reasoning != null) dropped.add('reasoning_content');
  const parts: Json[] = [];
  const direct = asString(message.content);
  if (direct) parts.push({ text: direct });
  else if (direct === null && message.content != null) {
    const list = asArray(message.content) ?? [];
    for (let j = 0; j < list.length; j++) {
      const part = asObject(list[j]);
      const text =
        part?.type === 'text' ? asString(part.text) : part?.type === 'refusal' ? asString(part.refusal) : null;
      if (text === null) return refuse(`${field}.content[${j}].type`, 'assistant content must be text');
      if (text) parts.push({ text });
    }
  }
  const calls = asArray(message.tool_calls) ?? [];
  for (let k = 0; k < calls.length; k++) {
    const callField = `${field}.tool_calls[${k}]`;
    const call = asObject(calls[k]);
    const fn = asObject(call?.function);
    const clientId = asString(call?.id);
    const name = asString(fn?.name);
    if (!call || !clientId || !name) return refuse(callField, 'a tool call needs an id and a function name');
    const args = parseArgs(fn?.arguments, `${callField}.function.arguments`);
    if (!args.ok) return args;
    names.set(clientId, name);
    const { id, signature } = splitToolId(clientId);
    const part: Json = { functionCall: { id, name, args: args.value } };
    const carried = signature ?? chatCallSignature(call);
    if (carried !== null) part.thoughtSignature = carried;
    parts.push(part);
  }
  if (parts.length === 0) dropped.add('empty assistant messages');
  return done(parts);
}

function parseArgs(value: unknown, field: string): Step<Json> {
  const text = asString(value) ?? '';
  if (text.trim().length === 0) return done({});
  try {
    const parsed = asObject(JSON.parse(text));
    return parsed ? done(parsed) : refuse(field, 'tool call arguments must be a JSON object');
  } catch {
    return refuse(field, 'tool call arguments are not valid JSON');
  }
}

function responsePart(message: Json, field: string, names: Map<string, string>): Step<Json[]> {
  const clientId = asString(message.tool_call_id);
  if (!clientId) return refuse(`${field}.tool_call_id`, 'a tool message needs a tool_call_id');
  const name = names.get(clientId);
  if (name === undefined) return refuse(`${field}.tool_call_id`, 'no earlier tool call has this id');
  const text = textOfContent(message.content, REQUEST_TEXT_JOIN);
  if (text === null)
    return refuse(`${field}.content[${firstNonTextPart(message.content)}].type`, 'tool content must be text');
  return done([{ functionResponse: { id: splitToolId(clientId).id, name, response: { output: text } } }]);
}
