import type { Json } from './translate-types';
import { asArray, asNumber, asObject, asString } from './json-narrow';
import { camelOf, given, pick } from './gemini-fields';
import { jsonSchemaFromGemini } from './gemini-schema';
import { done, refuse, type Step } from './refusal';

/**
 * `generationConfig`, read for any target. Refused, because the answer would mean something else:
 * more than one candidate, log probabilities, output other than text, a response MIME type other
 * than text or JSON. Thinking is asked for by a budget (> 0, or -1: the model decides) or a level
 * above MINIMAL; `includeThoughts` alone only says to show thoughts the model has.
 */
export interface GeminiGeneration {
  maxTokens: number | null;
  temperature: number | null;
  topP: number | null;
  topK: number | null;
  stop: string[];
  seed: number | null;
  presencePenalty: number | null;
  frequencyPenalty: number | null;
  /** Thinking asked for: a budget in tokens, or null for "the model decides"; null when not asked. */
  thinking: { budget: number | null } | null;
  /** Thought parts are wanted in the answer. */
  includeThoughts: boolean;
  /** JSON output asked for, with its JSON Schema when one was given. */
  json: { schema: Json | null } | null;
}

/** Gemini 3's levels as budgets, the same steps `reasoning_effort` uses (messages-request-from-chat.ts). */
const LEVEL_BUDGETS: Readonly<Record<string, number>> = { LOW: 1024, MEDIUM: 4096, HIGH: 16384 };

const HANDLED = new Set([
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'stopSequences',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'candidateCount',
  'responseLogprobs',
  'logprobs',
  'responseModalities',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'thinkingConfig',
]);

export function readGenerationConfig(config: Json | null, dropped: Set<string>): Step<GeminiGeneration> {
  for (const key in config ?? {}) if (!HANDLED.has(camelOf(key))) dropped.add(`generationConfig.${camelOf(key)}`);
  const n = (name: string) => asNumber(pick(config, name));
  const field = (name: string) => `generationConfig.${name}`;
  if ((n('candidateCount') ?? 1) > 1) return refuse(field('candidateCount'), 'only one candidate can be translated');
  if (pick(config, 'responseLogprobs') === true || (n('logprobs') ?? 0) > 0) {
    return refuse(field('responseLogprobs'), 'log probabilities are not translated');
  }
  const modalities = asArray(pick(config, 'responseModalities')) ?? [];
  if (modalities.some((m) => m !== 'TEXT'))
    return refuse(field('responseModalities'), 'only text output is translated');
  const json = readJson(config);
  if (!json.ok) return json;
  const stops = asArray(pick(config, 'stopSequences')) ?? [];
  const thinkingConfig = asObject(pick(config, 'thinkingConfig'));
  return done({
    maxTokens: n('maxOutputTokens'),
    temperature: n('temperature'),
    topP: n('topP'),
    topK: n('topK'),
    stop: stops.filter((s): s is string => typeof s === 'string'),
    seed: n('seed'),
    presencePenalty: n('presencePenalty'),
    frequencyPenalty: n('frequencyPenalty'),
    thinking: readThinking(thinkingConfig),
    includeThoughts: pick(thinkingConfig, 'includeThoughts') === true,
    json: json.value,
  });
}

function readJson(config: Json | null): Step<GeminiGeneration['json']> {
  const mime = asString(pick(config, 'responseMimeType'));
  const jsonSchema = asObject(pick(config, 'responseJsonSchema'));
  const schema = pick(config, 'responseSchema');
  if (mime === null || mime === 'text/plain') {
    if (jsonSchema || given(schema)) {
      return refuse('generationConfig.responseMimeType', 'a response schema needs responseMimeType application/json');
    }
    return done(null);
  }
  if (mime !== 'application/json') {
    return refuse('generationConfig.responseMimeType', `responseMimeType "${mime}" is not translated`);
  }
  return done({ schema: jsonSchema ?? (given(schema) ? jsonSchemaFromGemini(schema) : null) });
}

function readThinking(config: Json | null): GeminiGeneration['thinking'] {
  const budget = asNumber(pick(config, 'thinkingBudget'));
  if (budget !== null) return budget === -1 ? { budget: null } : budget > 0 ? { budget } : null;
  const level = LEVEL_BUDGETS[asString(pick(config, 'thinkingLevel')) ?? ''];
  return level === undefined ? null : { budget: level };
}
