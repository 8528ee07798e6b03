import { asArray, asObject, asString } from './json-narrow';
import { chatToolName } from './responses-tools';
import type { Json, TranslateRefusal } from './translate-types';

/**
 * Responses `input` items → Chat Completions messages. A Responses turn is a run of items
 * (reasoning, message, function calls); chat puts one model turn in one assistant message, so
 * consecutive assistant-side items are gathered into it and it is closed by the next user, system
 * or tool item. Tool results become `role: "tool"` messages; images a tool returned (codex's
 * `view_image`) follow the run of tool messages as one user message, since chat tool messages
 * carry text only.
 */

export type InputTranslation =
  { ok: true; messages: Json[]; dropped: string[] } | { ok: false; refusal: TranslateRefusal };

interface AssistantTurn {
  texts: string[];
  reasoning: string[];
  toolCalls: Json[];
}

/** Items that record hosted or dynamic tool use a chat model cannot replay; the answers that followed remain. */
const DROPPED_ITEMS = new Set(['web_search_call', 'tool_search_call', 'tool_search_output']);

/** The messages being built, with the open assistant turn and the images of the current run of tool results. */
class Transcript {
  readonly messages: Json[] = [];
  private turn: AssistantTurn | null = null;
  private toolImages: Json[] = [];

  /** The open assistant turn; `fresh` closes one that already has text or calls (a new model turn starts). */
  assistant(fresh: boolean): AssistantTurn {
    if (fresh && this.turn && (this.turn.toolCalls.length > 0 || this.turn.texts.length > 0)) this.closeTurn();
    this.closeTools();
    this.turn ??= { texts: [], reasoning: [], toolCalls: [] };
    return this.turn;
  }

  push(message: Json): void {
    this.closeTurn();
    if (message.role !== 'tool') this.closeTools();
    this.messages.push(message);
  }

  toolImage(images: Json[]): void {
    this.toolImages.push(...images);
  }

  close(): Json[] {
    this.closeTurn();
    this.closeTools();
    return this.messages;
  }

  private closeTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    this.turn = null;
    const message: Json = { role: 'assistant', content: turn.texts.length > 0 ? turn.texts.join('\n\n') : null };
    if (turn.reasoning.length > 0) message.reasoning_content = turn.reasoning.join('\n\n');
    if (turn.toolCalls.length > 0) message.tool_calls = turn.toolCalls;
    this.messages.push(message);
  }

  private closeTools(): void {
    if (this.toolImages.length === 0) return;
    this.messages.push({ role: 'user', content: this.toolImages });
    this.toolImages = [];
  }
}

export function chatMessagesFromInput(items: readonly unknown[], reasoning: boolean): InputTranslation {
  const transcript = new Transcript();
  const dropped = new Set<string>();

  for (let i = 0; i < items.length; i++) {
    const field = `input[${i}]`;
    const item = asObject(items[i]);
    if (!item) return refuse(field, 'an input item must be an object');
    // An "easy" input message has a role and no type.
    const type = asString(item.type) ?? (item.role !== undefined ? 'message' : null);
    switch (type) {
      case 'message': {
        const role = asString(item.role);
        const content = messageContent(item.content, role, `${field}.content`);
        if ('refusal' in content) return { ok: false, refusal: content.refusal };
        if (role === 'assistant') {
          transcript.assistant(true).texts.push(typeof content.value === 'string' ? content.value : '');
          break;
        }
        if (role !== 'user' && role !== 'system' && role !== 'developer') {
          return refuse(`${field}.role`, `role "${String(item.role)}" has no Chat Completions equivalent`);
        }
        transcript.push({ role: role === 'user' ? 'user' : 'system', content: content.value });
        break;
      }
      case 'reasoning': {
        if (item.encrypted_content != null) dropped.add('reasoning encrypted_content (only OpenAI can read it)');
        const text = reasoningText(item);
        if (!reasoning) {
          if (text) dropped.add('reasoning items (the upstream takes no reasoning_content)');
          break;
        }
        if (text) transcript.assistant(true).reasoning.push(text);
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const callId = asString(item.call_id);
        const name = asString(item.name);
        if (!callId) return refuse(`${field}.call_id`, 'a tool call needs a call_id');
        if (!name) return refuse(`${field}.name`, 'a tool call needs a name');
        const args =
          type === 'function_call'
            ? (asString(item.arguments) ?? '{}')
            : JSON.stringify({ input: asString(item.input) ?? '' });
        transcript.assistant(false).toolCalls.push({
          id: callId,
          type: 'function',
          function: { name: chatToolName(asString(item.namespace), name), arguments: args },
        });
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const callId = asString(item.call_id);
        if (!callId) return refuse(`${field}.call_id`, 'a tool output needs a call_id');
        const output = toolOutput(item.output, `${field}.output`);
        if ('refusal' in output) return { ok: false, refusal: output.refusal };
        transcript.push({ role: 'tool', tool_call_id: callId, content: output.text });
        transcript.toolImage(output.images);
        break;
      }
      case 'additional_tools':
        // Its tools are declared with the request's own (responses-tools.ts declaredTools).
        if (!asArray(item.tools)) return refuse(`${field}.tools`, 'an additional_tools item needs a tools array');
        break;
      case 'compaction':
      case 'compaction_summary':
        return refuse(
          `${field}.type`,
          'an encrypted compaction summary only OpenAI can read; without it the earlier conversation would be lost',
        );
      case 'item_reference':
        return refuse(`${field}.type`, 'Leeway keeps no response store: send the referenced item itself');
      default:
        if (type && DROPPED_ITEMS.has(type)) {
          dropped.add(`${type} items (hosted or dynamic tool records)`);
          break;
        }
        return refuse(`${field}.type`, `input item type "${String(type)}" cannot be sent to a chat model`);
    }
  }
  return { ok: true, messages: transcript.close(), dropped: [...dropped] };
}

/** A reasoning item's text: its raw content when present (what chat `reasoning_content` holds), else its summary. */
function reasoningText(item: Json): string {
  const pick = (value: unknown) =>
    (asArray(value) ?? [])
      .map((part) => asString(asObject(part)?.text))
      .filter((text): text is string => text !== null && text !== '');
  const content = pick(item.content);
  return (content.length > 0 ? content : pick(item.summary)).join('\n\n');
}

type Content = { value: string | Json[] } | { refusal: TranslateRefusal };

/** Text-only content becomes a string (every chat upstream takes it); images make it a parts array. */
function messageContent(content: unknown, role: string | null, field: string): Content {
  if (typeof content === 'string') return { value: content };
  const parts = asArray(content);
  if (!parts) return { refusal: { field, message: 'content must be a string or an array of parts' } };
  const out: Json[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = asObject(parts[i]);
    const type = asString(part?.type);
    if (!part || !type) return { refusal: { field: `${field}[${i}].type`, message: 'a content part needs a type' } };
    if (type === 'input_text' || type === 'output_text') {
      out.push({ type: 'text', text: asString(part.text) ?? '' });
    } else if (type === 'refusal') {
      out.push({ type: 'text', text: asString(part.refusal) ?? '' });
    } else if (type === 'input_image' && role === 'user') {
      const image = imagePart(part, `${field}[${i}]`);
      if ('refusal' in image) return image;
      out.push(image.part);
    } else {
      return {
        refusal: {
          field: `${field}[${i}].type`,
          message: `a "${type}" part cannot be sent in a ${String(role)} message`,
        },
      };
    }
  }
  if (out.every((part) => part.type === 'text')) return { value: out.map((part) => String(part.text)).join('\n\n') };
  return { value: out };
}

function imagePart(part: Json, field: string): { part: Json } | { refusal: TranslateRefusal } {
  const url = asString(part.image_url);
  if (!url) {
    return {
      refusal: {
        field: `${field}.image_url`,
        message: 'only images given by URL or data URL can be sent (no file_id)',
      },
    };
  }
  const detail = asString(part.detail);
  const image: Json = { url };
  // Chat takes auto/low/high; codex's "original" has no chat equivalent and means full size anyway.
  if (detail === 'auto' || detail === 'low' || detail === 'high') image.detail = detail;
  return { part: { type: 'image_url', image_url: image } };
}

type ToolOutput = { text: string; images: Json[] } | { refusal: TranslateRefusal };

/** A tool's output: a string, or parts (text and images, codex's `view_image`). */
function toolOutput(output: unknown, field: string): ToolOutput {
  if (typeof output === 'string') return { text: output, images: [] };
  const parts = asArray(output);
  if (!parts) return { refusal: { field, message: 'a tool output must be a string or an array of parts' } };
  const texts: string[] = [];
  const images: Json[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = asObject(parts[i]);
    const type = asString(part?.type);
    if (part && (type === 'input_text' || type === 'output_text')) {
      texts.push(asString(part.text) ?? '');
    } else if (part && type === 'input_image') {
      const image = imagePart(part, `${field}[${i}]`);
      if ('refusal' in image) return image;
      images.push(image.part);
    } else {
      return {
        refusal: { field: `${field}[${i}].type`, message: `a "${String(type)}" tool output part cannot be sent` },
      };
    }
  }
  const text = texts.join('\n\n');
  // A chat tool message needs some text; an image-only result says where the image went.
  return { text: text === '' && images.length > 0 ? '(image attached in the next message)' : text, images };
}

function refuse(field: string, message: string): InputTranslation {
  return { ok: false, refusal: { field, message } };
}
