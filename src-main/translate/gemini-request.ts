import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { camelOf, given, pick } from './gemini-fields';
import { readTurns, type Turn } from './gemini-turns';
import { readGeminiTools, type GeminiTool, type GeminiToolChoice } from './gemini-tools';
import { readGenerationConfig, type GeminiGeneration } from './gemini-generation';
import { done, refuse, type Step } from './refusal';
import { REQUEST_TEXT_JOIN } from './text-parts';

/**
 * A Gemini `generateContent` request read once, whatever it is translated to: the conversation,
 * tools and generation settings, with the refusals every target shares (a Google-side cached
 * content, Google-side tools and parts, more than one candidate, log probabilities, non-text
 * output). What each target cannot carry on its own is decided by its builder.
 */
export interface GeminiRequest {
  system: string | null;
  turns: Turn[];
  tools: GeminiTool[];
  choice: GeminiToolChoice;
  generation: GeminiGeneration;
  dropped: Set<string>;
}

const HANDLED = new Set([
  'model',
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
]);

export function readGeminiRequest(body: Json): Step<GeminiRequest> {
  const dropped = new Set<string>();
  for (const key in body) {
    const name = camelOf(key);
    if (!HANDLED.has(name)) dropped.add(name);
  }
  if (given(pick(body, 'cachedContent'))) {
    return refuse('cachedContent', 'a Gemini cached content lives on Google and cannot be read elsewhere');
  }
  // Other providers apply their own safety policy; the thresholds have nothing to set there.
  if (given(pick(body, 'safetySettings'))) dropped.add('safetySettings');
  const system = readSystem(pick(body, 'systemInstruction'));
  if (!system.ok) return system;
  const turns = readTurns(pick(body, 'contents'), dropped);
  if (!turns.ok) return turns;
  const tools = readGeminiTools(pick(body, 'tools'), pick(body, 'toolConfig'), dropped);
  if (!tools.ok) return tools;
  const generation = readGenerationConfig(asObject(pick(body, 'generationConfig')), dropped);
  if (!generation.ok) return generation;
  return done({
    system: system.value,
    turns: turns.value,
    tools: tools.value.tools,
    choice: tools.value.choice,
    generation: generation.value,
    dropped,
  });
}

/** `systemInstruction`: a Content of text parts (or, as some clients send it, a string). */
function readSystem(value: unknown): Step<string | null> {
  if (!given(value)) return done(null);
  const direct = asString(value);
  if (direct !== null) return done(direct);
  const parts = asArray(asObject(value)?.parts);
  if (!parts) return refuse('systemInstruction.parts', 'systemInstruction must be a content with parts');
  const texts: string[] = [];
  for (let j = 0; j < parts.length; j++) {
    const piece = asString(asObject(parts[j])?.text);
    if (piece === null) return refuse(`systemInstruction.parts[${j}]`, 'systemInstruction may hold only text');
    texts.push(piece);
  }
  return done(texts.join(REQUEST_TEXT_JOIN));
}
