import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { done, refuse, type Step } from './refusal';

/**
 * Tool definitions and tool choice both ways. Anthropic `{name, description, input_schema}` ⇄ Chat
 * `{type:"function", function:{name, description, parameters}}`. Anthropic server tools (web
 * search, code execution, bash, editor, computer…) run on Anthropic's side: no OpenAI-compatible
 * server runs them, so they are refused rather than offered as plain functions.
 */
const EMPTY_SCHEMA: Json = { type: 'object', properties: {} };
const ANTHROPIC_TOOL_KEYS = new Set(['name', 'description', 'input_schema', 'type', 'cache_control', 'strict']);

export function chatToolsFromAnthropic(tools: unknown, dropped: Set<string>): Step<Json[]> {
  const list = asArray(tools);
  if (!list) return refuse('tools', 'tools must be an array');
  const out: Json[] = [];
  for (let i = 0; i < list.length; i++) {
    const tool = asObject(list[i]);
    if (!tool) return refuse(`tools[${i}]`, 'a tool must be an object');
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      return refuse(
        `tools[${i}].type`,
        `server tool "${String(tool.type)}" cannot run on an OpenAI-compatible connection`,
      );
    }
    const name = asString(tool.name);
    if (!name) return refuse(`tools[${i}].name`, 'a tool needs a name');
    const fn: Json = { name };
    const description = asString(tool.description);
    if (description !== null) fn.description = description;
    fn.parameters = asObject(tool.input_schema) ?? EMPTY_SCHEMA;
    if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
    for (const key in tool) {
      if (key === 'cache_control') dropped.add('cache_control');
      else if (!ANTHROPIC_TOOL_KEYS.has(key)) dropped.add(`tools[].${key}`);
    }
    out.push({ type: 'function', function: fn });
  }
  return done(out);
}

export interface ChatToolChoice {
  tool_choice: unknown;
  parallelToolCalls: boolean | null;
}

export function chatToolChoiceFromAnthropic(choice: unknown): Step<ChatToolChoice> {
  const tc = asObject(choice);
  if (!tc) return refuse('tool_choice', 'tool_choice must be an object');
  const parallelToolCalls = tc.disable_parallel_tool_use === true ? false : null;
  switch (tc.type) {
    case 'auto':
      return done({ tool_choice: 'auto', parallelToolCalls });
    case 'any':
      return done({ tool_choice: 'required', parallelToolCalls });
    case 'none':
      return done({ tool_choice: 'none', parallelToolCalls });
    case 'tool': {
      const name = asString(tc.name);
      if (!name) return refuse('tool_choice.name', 'tool_choice "tool" needs a name');
      return done({ tool_choice: { type: 'function', function: { name } }, parallelToolCalls });
    }
    default:
      return refuse('tool_choice.type', `tool_choice "${String(tc.type)}" is not known`);
  }
}

export function anthropicToolsFromChat(tools: unknown, dropped: Set<string>): Step<Json[]> {
  const list = asArray(tools);
  if (!list) return refuse('tools', 'tools must be an array');
  const out: Json[] = [];
  for (let i = 0; i < list.length; i++) {
    const tool = asObject(list[i]);
    if (!tool) return refuse(`tools[${i}]`, 'a tool must be an object');
    if (tool.type !== 'function') {
      return refuse(`tools[${i}].type`, `tool type "${String(tool.type)}" has no Anthropic equivalent`);
    }
    const fn = asObject(tool.function);
    const name = asString(fn?.name);
    if (!fn || !name) return refuse(`tools[${i}].function.name`, 'a function tool needs a name');
    const converted: Json = { name };
    const description = asString(fn.description);
    if (description !== null) converted.description = description;
    converted.input_schema = asObject(fn.parameters) ?? EMPTY_SCHEMA;
    // Older Anthropic API versions reject `strict`; the schema itself still constrains the call.
    if (fn.strict !== undefined) dropped.add('tools[].function.strict');
    out.push(converted);
  }
  return done(out);
}

/** Chat `tool_choice` + `parallel_tool_calls` → Anthropic `tool_choice` (null: leave it out). */
export function anthropicToolChoiceFromChat(choice: unknown, parallelToolCalls: unknown): Step<Json | null> {
  const noParallel = parallelToolCalls === false;
  let out: Json | null;
  if (choice === undefined || choice === null) out = noParallel ? { type: 'auto' } : null;
  else if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') return done({ type: 'none' });
  else {
    const tc = asObject(choice);
    const name = asString(asObject(tc?.function)?.name);
    if (!tc || tc.type !== 'function' || !name) {
      return refuse('tool_choice', 'tool_choice must be auto, required, none or a named function');
    }
    out = { type: 'tool', name };
  }
  if (out && noParallel) out.disable_parallel_tool_use = true;
  return done(out);
}
