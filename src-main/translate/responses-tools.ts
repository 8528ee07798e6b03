import { asArray, asObject, asString } from './json-narrow';
import type { Json, TranslateRefusal } from './translate-types';

/**
 * Responses tools ⇄ Chat Completions function tools. A chat model only knows flat function tools,
 * so the Responses-only kinds are reshaped and the answer side maps the names back using the
 * client's own request (no state is kept between the two directions):
 * - `custom` (freeform, e.g. codex's `apply_patch`): a function with one string parameter `input`;
 *   its calls come back as `custom_tool_call` items carrying that `input`.
 * - `namespace` (codex's grouped tools): each inner tool is a function named `<namespace>__<name>`;
 *   its calls come back with `namespace` and the bare `name`, which is how codex routes them.
 * - hosted tools codex sends on every request and a chat model cannot run (`web_search`,
 *   `tool_search`) are dropped and listed; other hosted tools are refused naming the field.
 * `defer_loading` tools are sent up front: with `tool_search` gone nothing else would load them.
 * Tools come from the top-level `tools` and from `additional_tools` input items (see declaredTools).
 */

const NAMESPACE_SEPARATOR = '__';

/** Sent by codex 0.169 by default: dropped (listed), never refused, or codex could not use any chat connection. */
const DROPPED_BY_DEFAULT = new Set(['web_search', 'web_search_preview', 'web_search_2025_08_26', 'tool_search']);

export type ToolKind = 'function' | 'custom';

/** What a chat function name stands for in the client's Responses request. */
export interface ResponsesTool {
  kind: ToolKind;
  name: string;
  namespace: string | null;
}

/** Chat (and Anthropic) function names: `^[a-zA-Z0-9_-]{1,64}$`. */
const CHAT_NAME_MAX = 64;

/**
 * A namespaced tool's chat name. Both directions derive it with this one function, so a name made
 * legal (other characters → `_`, long ones cut and given a hash of the whole) still maps back.
 */
export function chatToolName(namespace: string | null, name: string): string {
  if (!namespace) return name;
  const flat = `${namespace}${NAMESPACE_SEPARATOR}${name}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (flat.length <= CHAT_NAME_MAX) return flat;
  return `${flat.slice(0, CHAT_NAME_MAX - 9)}_${fnv1a(`${namespace}\u0000${name}`)}`;
}

/** 32-bit FNV-1a as 8 hex digits: short, stable, no crypto needed for a name. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Every tool a request declares, in order, with the field each came from (for refusals). */
export interface DeclaredTools {
  tools: unknown[];
  fields: string[];
}

/**
 * The top-level `tools`, then the tools of each `additional_tools` input item. Such an item adds
 * tools at its place in the conversation; codex 0.169's default model ("responses lite") sends no
 * top-level `tools` at all, only one such item first in `input`, on every turn. Chat declares tools
 * once for the whole conversation, so they are all declared up front; a later definition of a name
 * replaces an earlier one (a tool updated mid-conversation).
 */
export function declaredTools(request: Json): DeclaredTools {
  const tools: unknown[] = [];
  const fields: string[] = [];
  (asArray(request.tools) ?? []).forEach((tool, i) => {
    tools.push(tool);
    fields.push(`tools[${i}]`);
  });
  (asArray(request.input) ?? []).forEach((entry, i) => {
    const item = asObject(entry);
    if (asString(item?.type) !== 'additional_tools') return;
    (asArray(item?.tools) ?? []).forEach((tool, j) => {
      tools.push(tool);
      fields.push(`input[${i}].tools[${j}]`);
    });
  });
  return { tools, fields };
}

export type ToolsTranslation =
  { ok: true; tools: Json[]; dropped: string[] } | { ok: false; refusal: TranslateRefusal };

/** Chat function tools for the declared tools; `fields[i]` names tool i in refusals (default `tools[i]`). */
export function chatToolsFromResponses(tools: readonly unknown[], fields: readonly string[] = []): ToolsTranslation {
  const out: Json[] = [];
  const dropped: string[] = [];
  /** Chat name → its place in `out` and the field it came from: chat servers refuse duplicate names. */
  const placed = new Map<string, { at: number; field: string }>();
  const place = (tool: Json, field: string) => {
    const name = String(asObject(tool.function)?.name);
    const earlier = placed.get(name);
    if (earlier === undefined) {
      placed.set(name, { at: out.length, field });
      out.push(tool);
      return;
    }
    out[earlier.at] = tool;
    dropped.push(`${earlier.field} (replaced by ${field}, a later tool of the same name)`);
    placed.set(name, { at: earlier.at, field });
  };
  for (let i = 0; i < tools.length; i++) {
    const field = fields[i] ?? `tools[${i}]`;
    const tool = asObject(tools[i]);
    const type = asString(tool?.type);
    if (!tool || !type) return refuse(`${field}.type`, 'a tool needs a type');
    if (DROPPED_BY_DEFAULT.has(type)) {
      dropped.push(`${field} (${type}: a hosted tool a chat model cannot run)`);
      continue;
    }
    if (type === 'namespace') {
      const namespace = asString(tool.name);
      const inner = asArray(tool.tools);
      if (!namespace || !inner) return refuse(field, 'a namespace tool needs a name and tools');
      for (let j = 0; j < inner.length; j++) {
        const innerField = `${field}.tools[${j}]`;
        const one = chatTool(asObject(inner[j]), namespace, innerField);
        if ('refusal' in one) return { ok: false, refusal: one.refusal };
        place(one.tool, innerField);
      }
      continue;
    }
    const one = chatTool(tool, null, field);
    if ('refusal' in one) return { ok: false, refusal: one.refusal };
    place(one.tool, field);
  }
  return { ok: true, tools: out, dropped };
}

function chatTool(
  tool: Json | null,
  namespace: string | null,
  field: string,
): { tool: Json } | { refusal: TranslateRefusal } {
  const type = asString(tool?.type);
  const name = asString(tool?.name);
  if (!tool || !type) return { refusal: { field: `${field}.type`, message: 'a tool needs a type' } };
  if (type !== 'function' && type !== 'custom') {
    return {
      refusal: {
        field: `${field}.type`,
        message: `a "${type}" tool runs on OpenAI's servers; a chat model cannot serve it`,
      },
    };
  }
  if (!name) return { refusal: { field: `${field}.name`, message: 'a tool needs a name' } };
  const description = asString(tool.description);
  const fn: Json = { name: chatToolName(namespace, name) };
  if (type === 'function') {
    if (description) fn.description = description;
    fn.parameters = asObject(tool.parameters) ?? { type: 'object', properties: {} };
    if (tool.strict === true) fn.strict = true;
  } else {
    fn.description = customDescription(description, asObject(tool.format));
    fn.parameters = {
      type: 'object',
      properties: { input: { type: 'string', description: 'The raw input for this tool (freeform text, not JSON).' } },
      required: ['input'],
      additionalProperties: false,
    };
  }
  return { tool: { type: 'function', function: fn } };
}

/** A freeform tool's grammar is what tells the model the input format (apply_patch): it must travel. */
function customDescription(description: string | null, format: Json | null): string {
  const base = description ?? '';
  const definition = asString(format?.definition);
  if (asString(format?.type) !== 'grammar' || !definition) return base;
  const syntax = asString(format?.syntax) ?? 'lark';
  return `${base}\n\nPut the tool's raw input in the "input" string. It must match this ${syntax} grammar:\n${definition}`;
}

/** Chat function name → what the client declared, from the client's request tools (see declaredTools). */
export function responsesToolIndex(requestTools: unknown): Map<string, ResponsesTool> {
  const index = new Map<string, ResponsesTool>();
  const add = (tool: Json | null, namespace: string | null) => {
    const type = asString(tool?.type);
    const name = asString(tool?.name);
    if (!name || (type !== 'function' && type !== 'custom')) return;
    const key = chatToolName(namespace, name);
    // A top-level tool wins over a namespaced one that flattens to the same name.
    if (!index.has(key) || namespace === null) index.set(key, { kind: type, name, namespace });
  };
  for (const entry of asArray(requestTools) ?? []) {
    const tool = asObject(entry);
    if (asString(tool?.type) === 'namespace') {
      const namespace = asString(tool?.name);
      for (const inner of asArray(tool?.tools) ?? []) add(asObject(inner), namespace);
    } else add(tool, null);
  }
  return index;
}

export function resolveTool(index: Map<string, ResponsesTool>, chatName: string): ResponsesTool {
  return index.get(chatName) ?? { kind: 'function', name: chatName, namespace: null };
}

/** A custom tool's chat arguments (`{"input": …}`) back to its raw input; a model that sent raw text keeps it. */
export function customInput(argumentsText: string): string {
  try {
    const parsed = asObject(JSON.parse(argumentsText));
    const input = asString(parsed?.input);
    if (input !== null) return input;
  } catch {
    // not JSON: the model wrote the input itself
  }
  return argumentsText;
}

/** `tool_choice` naming one tool → the chat form; the other forms are the caller's. */
export function chatToolChoiceName(choice: Json): string | null {
  const name = asString(choice.name);
  if (!name) return null;
  return chatToolName(asString(choice.namespace), name);
}

function refuse(field: string, message: string): ToolsTranslation {
  return { ok: false, refusal: { field, message } };
}
