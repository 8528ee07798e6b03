import type { Json } from './translate-types';
import { asArray, asObject } from './json-narrow';
import { SKIP_SIGNATURE } from './gemini-ids';

/**
 * Gemini `contents` as they are built from Chat or Anthropic messages. Turns of one role in a row
 * merge (tool results and the user's next words are one user turn, as Gemini pairs a model turn's
 * calls with the next turn's responses); a user turn's functionResponse parts come first. The
 * first functionCall of each model turn gets Google's stand-in signature when it has none: Gemini 3
 * refuses a tool loop whose call has no thoughtSignature, and history from another model has none.
 */
export class ContentsOut {
  readonly contents: Json[] = [];

  push(role: 'user' | 'model', parts: Json[]): void {
    if (parts.length === 0) return;
    const last = this.contents[this.contents.length - 1];
    if (last && last.role === role) last.parts = [...(asArray(last.parts) ?? []), ...parts];
    else this.contents.push({ role, parts });
  }

  /** The finished contents: responses first in user turns, a signature on each model turn's first call. */
  done(): Json[] {
    for (const content of this.contents) {
      const parts = (asArray(content.parts) ?? []) as Json[];
      if (content.role === 'user') {
        const responses = parts.filter((part) => part.functionResponse !== undefined);
        content.parts = [...responses, ...parts.filter((part) => part.functionResponse === undefined)];
        continue;
      }
      const first = parts.find((part) => asObject(part.functionCall) !== null);
      if (first && typeof first.thoughtSignature !== 'string') first.thoughtSignature = SKIP_SIGNATURE;
    }
    return this.contents;
  }
}

/** `functionDeclarations` entry: the JSON Schema goes as `parametersJsonSchema`, Gemini's JSON Schema field. */
export function functionDeclaration(name: string, description: string | null, schema: Json | null): Json {
  const out: Json = { name };
  if (description !== null) out.description = description;
  if (schema) {
    // Draft markers are no schema: Gemini reads the rest.
    const { $schema: _marker, ...rest } = schema;
    out.parametersJsonSchema = rest;
  }
  return out;
}

/** `toolConfig` for a mode and, for a forced function, its name. */
export function toolConfigOf(mode: 'AUTO' | 'ANY' | 'NONE', forced: string | null = null): Json {
  const config: Json = { mode };
  if (forced !== null) config.allowedFunctionNames = [forced];
  return { functionCallingConfig: config };
}
