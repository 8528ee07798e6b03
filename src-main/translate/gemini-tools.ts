import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { camelOf, given, pick } from './gemini-fields';
import { declarationParameters } from './gemini-schema';
import { done, refuse, type Step } from './refusal';

/**
 * Gemini `tools[].functionDeclarations` and `toolConfig.functionCallingConfig`, read for a Chat or
 * Anthropic upstream. Google-side tools (googleSearch, codeExecution, urlContext, fileSearch…) are
 * refused: no other upstream runs them. `allowedFunctionNames` limits which functions may be
 * called; the others are left out of the declarations, which has the same effect everywhere.
 * `VALIDATED` (calls or text, calls checked against their schema) reads as AUTO.
 */
export interface GeminiTool {
  name: string;
  description: string | null;
  /** JSON Schema of the arguments. */
  parameters: Json;
}

export interface GeminiToolChoice {
  mode: 'AUTO' | 'ANY' | 'NONE' | null;
  /** The one function ANY must call, when only one is allowed. */
  forced: string | null;
}

const DECLARATION_KEYS = new Set(['name', 'description', 'parameters', 'parametersJsonSchema']);

export function readGeminiTools(
  toolsValue: unknown,
  configValue: unknown,
  dropped: Set<string>,
): Step<{ tools: GeminiTool[]; choice: GeminiToolChoice }> {
  const tools: GeminiTool[] = [];
  if (given(toolsValue)) {
    const list = asArray(toolsValue);
    if (!list) return refuse('tools', 'tools must be an array');
    for (let i = 0; i < list.length; i++) {
      const tool = asObject(list[i]);
      if (!tool) return refuse(`tools[${i}]`, 'a tool must be an object');
      for (const key in tool) {
        const name = camelOf(key);
        if (name !== 'functionDeclarations') {
          return refuse(`tools[${i}].${name}`, `the ${name} tool runs on Google's side only`);
        }
      }
      const declarations = asArray(pick(tool, 'functionDeclarations')) ?? [];
      for (let k = 0; k < declarations.length; k++) {
        const field = `tools[${i}].functionDeclarations[${k}]`;
        const declaration = asObject(declarations[k]);
        const name = asString(declaration?.name);
        if (!declaration || !name) return refuse(`${field}.name`, 'a function declaration needs a name');
        for (const key in declaration) {
          if (!DECLARATION_KEYS.has(camelOf(key))) dropped.add(`functionDeclarations[].${camelOf(key)}`);
        }
        const normalised: Json = {};
        for (const key in declaration) normalised[camelOf(key)] = declaration[key];
        tools.push({
          name,
          description: asString(declaration.description),
          parameters: declarationParameters(normalised),
        });
      }
    }
  }
  return readChoice(asObject(configValue), tools, dropped);
}

function readChoice(
  config: Json | null,
  declared: GeminiTool[],
  dropped: Set<string>,
): Step<{ tools: GeminiTool[]; choice: GeminiToolChoice }> {
  for (const key in config ?? {})
    if (camelOf(key) !== 'functionCallingConfig') dropped.add(`toolConfig.${camelOf(key)}`);
  const calling = asObject(pick(config, 'functionCallingConfig'));
  const field = 'toolConfig.functionCallingConfig';
  const rawMode = asString(calling?.mode) ?? 'MODE_UNSPECIFIED';
  let mode: GeminiToolChoice['mode'];
  if (rawMode === 'AUTO' || rawMode === 'VALIDATED') mode = 'AUTO';
  else if (rawMode === 'ANY' || rawMode === 'NONE') mode = rawMode;
  else if (rawMode === 'MODE_UNSPECIFIED') mode = null;
  else return refuse(`${field}.mode`, `mode "${rawMode}" is not known`);
  if (rawMode === 'VALIDATED') dropped.add(`${field}.mode VALIDATED (read as AUTO)`);
  const allowed = asArray(pick(calling, 'allowedFunctionNames'));
  let tools = declared;
  const limited = allowed !== null && allowed.length > 0 && mode !== 'NONE';
  if (limited) {
    tools = declared.filter((tool) => allowed.includes(tool.name));
    if (tools.length === 0) {
      return refuse(`${field}.allowedFunctionNames`, 'none of the allowed functions is declared');
    }
  }
  const forced = limited && mode === 'ANY' && tools.length === 1 ? (tools[0]?.name ?? null) : null;
  if (tools.length === 0 && mode !== null) {
    // Chat and Anthropic refuse a tool choice without tools; with none, there is nothing to choose.
    dropped.add(`${field}.mode`);
    return done({ tools, choice: { mode: null, forced: null } });
  }
  return done({ tools, choice: { mode, forced } });
}
