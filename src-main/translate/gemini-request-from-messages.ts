import type { Json, RequestTranslator } from './translate-types';
import { asArray, asNumber, asObject, asString } from './json-narrow';
import { appendContentsFromAnthropic } from './gemini-contents-from-anthropic';
import { ContentsOut, functionDeclaration, toolConfigOf } from './gemini-contents-out';
import { done, refuse, type Step } from './refusal';
import { REQUEST_TEXT_JOIN, firstNonTextPart, textOfContent } from './text-parts';

/**
 * Anthropic Messages request → Gemini `generateContent` request (Claude Code and other Anthropic
 * clients served by a Gemini connection). The model and the stream go in the URL. See README
 * "Gemini" for every refusal and drop.
 */
const REFUSED: Record<string, string> = {
  container: 'containers exist only on Anthropic (code execution)',
  mcp_servers: 'the MCP connector runs on Anthropic; a Gemini connection cannot reach those servers',
  output_format: 'use output_config.format',
};

const HANDLED = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
]);

export const geminiRequestFromMessages: RequestTranslator = (body) => {
  const dropped = new Set<string>();
  for (const key in body) {
    const why = REFUSED[key];
    if (why !== undefined && body[key] != null) return refuse(key, why);
    if (!HANDLED.has(key)) dropped.add(key);
  }
  const input = asArray(body.messages);
  if (!input) return refuse('messages', 'messages must be an array');
  const contents = new ContentsOut();
  const refusal = appendContentsFromAnthropic(input, dropped, contents);
  if (refusal) return { ok: false, refusal };
  const out: Json = { contents: contents.done() };
  if (body.system != null) {
    const system = textOfContent(body.system, REQUEST_TEXT_JOIN);
    if (system === null) return refuse(`system[${firstNonTextPart(body.system)}].type`, 'system blocks must be text');
    if (system.length > 0) out.systemInstruction = { parts: [{ text: system }] };
    // Gemini caches on its own (implicit caching); the breakpoints have nothing to mark there.
    if (asArray(body.system)?.some((block) => asObject(block)?.cache_control !== undefined))
      dropped.add('cache_control');
  }
  const tools = functionTools(body.tools);
  if (!tools.ok) return tools;
  if (tools.value.length > 0) {
    out.tools = [{ functionDeclarations: tools.value }];
    if (body.tool_choice != null) {
      const choice = toolConfig(body.tool_choice, dropped);
      if (!choice.ok) return choice;
      out.toolConfig = choice.value;
    }
  } else if (body.tool_choice != null) dropped.add('tool_choice'); // Gemini refuses a toolConfig mode without tools.
  const generation = generationConfig(body, dropped);
  if (!generation.ok) return generation;
  if (Object.keys(generation.value).length > 0) out.generationConfig = generation.value;
  return { ok: true, body: out, dropped: [...dropped] };
};

function functionTools(value: unknown): Step<Json[]> {
  if (value == null) return done([]);
  const list = asArray(value);
  if (!list) return refuse('tools', 'tools must be an array');
  const out: Json[] = [];
  for (let i = 0; i < list.length; i++) {
    const tool = asObject(list[i]);
    if (!tool) return refuse(`tools[${i}]`, 'a tool must be an object');
    if (tool.type != null && tool.type !== 'custom') {
      return refuse(`tools[${i}].type`, `server tool "${String(tool.type)}" cannot run on a Gemini connection`);
    }
    const name = asString(tool.name);
    if (!name) return refuse(`tools[${i}].name`, 'a tool needs a name');
    out.push(functionDeclaration(name, asString(tool.description), asObject(tool.input_schema)));
  }
  return done(out);
}

function toolConfig(value: unknown, dropped: Set<string>): Step<Json> {
  const choice = asObject(value);
  if (choice?.disable_parallel_tool_use === true) dropped.add('tool_choice.disable_parallel_tool_use');
  switch (choice?.type) {
    case 'auto':
      return done(toolConfigOf('AUTO'));
    case 'any':
      return done(toolConfigOf('ANY'));
    case 'none':
      return done(toolConfigOf('NONE'));
    case 'tool': {
      const name = asString(choice.name);
      return name ? done(toolConfigOf('ANY', name)) : refuse('tool_choice.name', 'tool_choice "tool" needs a name');
    }
    default:
      return refuse('tool_choice.type', `tool_choice "${String(choice?.type)}" is not known`);
  }
}

function generationConfig(body: Json, dropped: Set<string>): Step<Json> {
  const config: Json = {};
  const copies = [
    ['max_tokens', 'maxOutputTokens'],
    ['temperature', 'temperature'],
    ['top_p', 'topP'],
    ['top_k', 'topK'],
  ] as const;
  for (const [from, to] of copies) {
    const value = asNumber(body[from]);
    if (value !== null) config[to] = value;
  }
  const stops = asArray(body.stop_sequences);
  if (stops && stops.length > 0) config.stopSequences = stops;
  const thinking = asObject(body.thinking);
  const budget = asNumber(thinking?.budget_tokens);
  if (thinking?.type === 'enabled' && budget !== null) {
    config.thinkingConfig = { thinkingBudget: budget, includeThoughts: true };
  } else if (thinking?.type === 'adaptive') {
    config.thinkingConfig = { includeThoughts: true };
  } else if (thinking) {
    // "disabled": some Gemini models cannot stop thinking (budget 0 is a 400 there); they think unseen.
    dropped.add('thinking');
  }
  const output = asObject(body.output_config);
  if (output) {
    const format = asObject(output.format);
    if (format?.type === 'json_schema') {
      config.responseMimeType = 'application/json';
      const schema = asObject(format.schema);
      if (schema) config.responseJsonSchema = schema;
    } else if (format) return refuse('output_config.format.type', `format "${String(format.type)}" is not translated`);
    for (const key in output) if (key !== 'format') dropped.add(`output_config.${key}`);
  }
  return done(config);
}
