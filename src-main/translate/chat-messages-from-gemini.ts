import type { Json, TranslateRefusal } from './translate-types';
import { TOOL_ERROR_PREFIX } from './chat-messages-from-anthropic';
import { SKIP_SIGNATURE, upstreamToolId } from './gemini-ids';
import type { Media } from './gemini-media';
import type { Turn } from './gemini-turns';
import { done, refuse, type Step } from './refusal';
import { REQUEST_TEXT_JOIN } from './text-parts';

/**
 * Gemini turns → Chat `messages` (appended to `out`). A user turn's function responses become
 * `role:"tool"` messages first (Chat wants them right after the assistant's calls), then the rest
 * of the turn as one user message; images of a response move into that message (Chat tool
 * messages hold text only). Model text parts are pieces of one answer and join with nothing; user
 * text parts join with a blank line, as Anthropic request blocks do (text-parts.ts).
 */
export interface ChatTurnOptions {
  reasoning: boolean;
  dropped: Set<string>;
}

export function appendChatFromTurns(
  turns: readonly Turn[],
  options: ChatTurnOptions,
  out: Json[],
): TranslateRefusal | null {
  for (const turn of turns) {
    const refusal = turn.role === 'user' ? appendUser(turn, options.dropped, out) : appendModel(turn, options, out);
    if (refusal) return refusal;
  }
  return null;
}

/** An image as a Chat part; other media have no Chat form. */
function imagePart(media: Media): Step<Json> {
  if (!media.mimeType.startsWith('image/')) {
    const what = media.mimeType === 'application/pdf' ? 'PDF documents have' : `"${media.mimeType}" has`;
    return refuse(media.field, `${what} no Chat Completions equivalent`);
  }
  const url = media.data !== null ? `data:${media.mimeType};base64,${media.data}` : (media.url ?? '');
  return done({ type: 'image_url', image_url: { url } });
}

function appendUser(turn: Turn, dropped: Set<string>, out: Json[]): TranslateRefusal | null {
  const parts: Json[] = [];
  let hadResult = false;
  for (const item of turn.items) {
    if (item.kind === 'result') {
      hadResult = true;
      const content = item.isError ? TOOL_ERROR_PREFIX + item.output : item.output;
      out.push({ role: 'tool', tool_call_id: upstreamToolId(item.id), content });
      for (const media of item.media) {
        const part = imagePart(media);
        if (!part.ok) return part.refusal;
        parts.push(part.value);
      }
    } else if (item.kind === 'text') {
      parts.push({ type: 'text', text: item.text });
    } else if (item.kind === 'media') {
      const part = imagePart(item.media);
      if (!part.ok) return part.refusal;
      parts.push(part.value);
    } else if (item.kind === 'thought') {
      dropped.add('thought parts');
    }
  }
  if (parts.length === 0) {
    if (!hadResult) dropped.add('empty user turns');
    return null;
  }
  const allText = parts.every((part) => part.type === 'text');
  out.push({ role: 'user', content: allText ? parts.map((part) => String(part.text)).join(REQUEST_TEXT_JOIN) : parts });
  return null;
}

function appendModel(turn: Turn, options: ChatTurnOptions, out: Json[]): TranslateRefusal | null {
  let text: string | null = null;
  let reasoning: string | null = null;
  const calls: Json[] = [];
  for (const item of turn.items) {
    if (item.kind === 'text') text = (text ?? '') + item.text;
    else if (item.kind === 'thought') {
      if (options.reasoning) reasoning = (reasoning ?? '') + item.text;
      else options.dropped.add('thought parts');
    } else if (item.kind === 'call') {
      if (item.signature !== null && item.signature !== SKIP_SIGNATURE) options.dropped.add('thoughtSignature');
      const fn = { name: item.name, arguments: JSON.stringify(item.args) };
      calls.push({ id: upstreamToolId(item.id), type: 'function', function: fn });
    } else if (item.kind === 'media') {
      return { field: item.media.field, message: 'a model turn may hold text, thoughts and function calls only' };
    }
  }
  if (text === null && calls.length === 0 && reasoning === null) {
    options.dropped.add('empty model turns');
    return null;
  }
  const message: Json = { role: 'assistant', content: text ?? (calls.length > 0 ? null : '') };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning !== null) message.reasoning_content = reasoning;
  out.push(message);
  return null;
}
