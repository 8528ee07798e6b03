import type { Json } from './translate-types';

/**
 * `GET /v1beta/models` and `GET /v1beta/models/{model}` in Google's shape, from the model ids Leeway
 * serves: `name` is `models/<id>`, the methods a Gemini client may call are generateContent (also
 * streamed) and countTokens. Token limits are given only when known: a Gemini client reads them as
 * the model's, and a guess would mislead it.
 */
export interface GeminiModelInfo {
  id: string;
  displayName?: string;
  inputTokenLimit?: number | null;
  outputTokenLimit?: number | null;
}

const METHODS = ['generateContent', 'countTokens'];

export function geminiModel(entry: string | GeminiModelInfo): Json {
  const info = typeof entry === 'string' ? { id: entry } : entry;
  const id = info.id.startsWith('models/') ? info.id.slice('models/'.length) : info.id;
  const out: Json = { name: `models/${id}`, baseModelId: id, version: '001', displayName: info.displayName ?? id };
  if (info.inputTokenLimit != null) out.inputTokenLimit = info.inputTokenLimit;
  if (info.outputTokenLimit != null) out.outputTokenLimit = info.outputTokenLimit;
  out.supportedGenerationMethods = METHODS;
  return out;
}

export function geminiModelList(entries: readonly (string | GeminiModelInfo)[]): Json {
  return { models: entries.map(geminiModel) };
}
