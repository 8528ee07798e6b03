import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { pick } from './gemini-fields';

/**
 * What a Chat or Anthropic client needs from a Gemini answer or stream chunk: the first
 * candidate's parts (other candidates exist only with candidateCount > 1, which is never asked
 * for), its finish reason, the usage, the response id. A prompt Google blocked has no candidate
 * and a `promptFeedback.blockReason`: it reads as a SAFETY finish.
 */
export interface GeminiPart {
  kind: 'text' | 'thought' | 'call';
  text: string;
  /** For a call. */
  id: string | null;
  name: string;
  args: Json;
  signature: string | null;
}

export interface GeminiCandidate {
  parts: GeminiPart[];
  finishReason: string | null;
  usage: Json | null;
  responseId: string | null;
}

export function readCandidate(body: Json): GeminiCandidate {
  const candidates = asArray(body.candidates) ?? [];
  const candidate = asObject(candidates.find((c) => (asObject(c)?.index ?? 0) === 0) ?? null);
  const parts: GeminiPart[] = [];
  for (const raw of asArray(asObject(candidate?.content)?.parts) ?? []) {
    const part = asObject(raw);
    if (!part) continue;
    const signature = asString(pick(part, 'thoughtSignature'));
    const text = asString(part.text);
    const call = asObject(pick(part, 'functionCall'));
    if (text !== null) {
      parts.push({ kind: part.thought === true ? 'thought' : 'text', text, id: null, name: '', args: {}, signature });
    } else if (call) {
      const id = asString(call.id) || null;
      parts.push({
        kind: 'call',
        text: '',
        id,
        name: asString(call.name) ?? '',
        args: asObject(call.args) ?? {},
        signature,
      });
    }
    // Images, code execution and other Google-side parts have no Chat or Anthropic answer form.
  }
  const blocked = asString(asObject(pick(body, 'promptFeedback'))?.blockReason);
  return {
    parts,
    finishReason: asString(pick(candidate, 'finishReason')) ?? (blocked && !candidate ? 'SAFETY' : null),
    usage: asObject(pick(body, 'usageMetadata')),
    responseId: asString(pick(body, 'responseId')),
  };
}
