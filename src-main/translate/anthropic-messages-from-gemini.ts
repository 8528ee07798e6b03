import type { Json, TranslateRefusal } from './translate-types';
import { SKIP_SIGNATURE, upstreamToolId } from './gemini-ids';
import type { Media } from './gemini-media';
import { blocksOfEnvelope } from './gemini-thinking-envelope';
import type { Turn } from './gemini-turns';
import { done, refuse, type Step } from './refusal';

/**
 * Gemini turns → Anthropic `messages` (appended to `out`). Turns of one role in a row merge
 * (Anthropic wants user and assistant to alternate), and in a user turn the tool_result blocks come
 * first, as Anthropic requires. A model turn's thinking is what its calls' signatures carry
 * (gemini-thinking-envelope.ts), put first as Anthropic wants it; thought parts themselves cannot
 * be verified by Anthropic and are left out. Empty text parts are left out (Anthropic refuses them).
 */
export function appendAnthropicFromTurns(
  turns: readonly Turn[],
  dropped: Set<string>,
  out: Json[],
): TranslateRefusal | null {
  for (const turn of turns) {
    const blocks = turn.role === 'user' ? userBlocks(turn, dropped) : done(modelBlocks(turn, dropped));
    if (!blocks.ok) return blocks.refusal;
    if (blocks.value.length === 0) {
      dropped.add(`empty ${turn.role} turns`);
      continue;
    }
    const role = turn.role === 'user' ? 'user' : 'assistant';
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = [...(last.content as Json[]), ...blocks.value];
    else out.push({ role, content: blocks.value });
  }
  for (const message of out) {
    if (message.role !== 'user') continue;
    const content = message.content as Json[];
    message.content = [...content.filter(isResult), ...content.filter((block) => !isResult(block))];
  }
  return null;
}

function isResult(block: Json): boolean {
  return block.type === 'tool_result';
}

/** An image or a PDF as an Anthropic block; other media have no Anthropic form. */
function mediaBlock(media: Media): Step<Json> {
  const type = media.mimeType.startsWith('image/') ? 'image' : media.mimeType === 'application/pdf' ? 'document' : null;
  if (type === null) return refuse(media.field, `"${media.mimeType}" cannot be sent to Anthropic`);
  const source =
    media.data !== null
      ? { type: 'base64', media_type: media.mimeType, data: media.data }
      : { type: 'url', url: media.url ?? '' };
  return done({ type, source });
}

function userBlocks(turn: Turn, dropped: Set<string>): Step<Json[]> {
  const blocks: Json[] = [];
  for (const item of turn.items) {
    if (item.kind === 'result') {
      const block: Json = { type: 'tool_result', tool_use_id: upstreamToolId(item.id) };
      if (item.media.length === 0) block.content = item.output;
      else {
        const content: Json[] = item.output.length > 0 ? [{ type: 'text', text: item.output }] : [];
        for (const media of item.media) {
          const converted = mediaBlock(media);
          if (!converted.ok) return converted;
          content.push(converted.value);
        }
        block.content = content;
      }
      if (item.isError) block.is_error = true;
      blocks.push(block);
    } else if (item.kind === 'text') {
      if (item.text.length > 0) blocks.push({ type: 'text', text: item.text });
    } else if (item.kind === 'media') {
      const converted = mediaBlock(item.media);
      if (!converted.ok) return converted;
      blocks.push(converted.value);
    } else if (item.kind === 'thought') {
      dropped.add('thought parts');
    }
  }
  return done(blocks);
}

function modelBlocks(turn: Turn, dropped: Set<string>): Json[] {
  const thinking: Json[] = [];
  const rest: Json[] = [];
  let text: Json | null = null;
  for (const item of turn.items) {
    if (item.kind === 'text') {
      if (item.text.length === 0) continue;
      // Gemini streams one answer as many text parts: they are one text block again.
      if (text) text.text = String(text.text) + item.text;
      else rest.push((text = { type: 'text', text: item.text }));
    } else if (item.kind === 'call') {
      const carried = blocksOfEnvelope(item.signature);
      if (carried) thinking.push(...carried);
      else if (item.signature !== null && item.signature !== SKIP_SIGNATURE) dropped.add('thoughtSignature');
      rest.push({ type: 'tool_use', id: upstreamToolId(item.id), name: item.name, input: item.args });
      text = null;
    } else if (item.kind === 'thought') {
      dropped.add('thought parts');
    } else if (item.kind === 'media') {
      dropped.add('media in model turns');
    }
  }
  return [...thinking, ...rest];
}
