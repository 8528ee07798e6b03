import type { AppError } from '../../../src-shared/contract/errors';
import type { ModelEndpoint } from './endpoints';
import { MAX_MODEL_CHARS } from './parse-model-body';

/**
 * Issue 23 §1: Google's Gemini API door, `/v1beta/models…`. The model and the call are in the path
 * (`models/{model}:generateContent`), so each match names its model; what Google would refuse is
 * refused here in Google's shape (the request's format is `gemini` from its path).
 */
export const GEMINI_PREFIX = '/v1beta';
const MODELS = '/v1beta/models';

const GENERATE: ModelEndpoint = {
  kind: 'model',
  name: 'generate_content',
  format: 'gemini',
  wire: 'gemini',
  operation: 'generate_content',
};
const STREAM: ModelEndpoint = {
  kind: 'model',
  name: 'stream_generate_content',
  format: 'gemini',
  wire: 'gemini',
  operation: 'stream_generate_content',
};

export type GeminiMatch =
  | { kind: 'model'; endpoint: ModelEndpoint }
  | { kind: 'gemini-models'; model: string | null }
  | { kind: 'gemini-count'; model: string }
  | { kind: 'wrong_method'; allowed: string }
  | { kind: 'refused'; error: AppError };

const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];

function refused(status: number, message: string): GeminiMatch {
  return { kind: 'refused', error: { code: status === 404 ? 'not_found' : 'invalid_input', status, message } };
}

/** `/v1beta/models…` and its method → what to serve; anything else under /v1beta is Google's 404. */
export function matchGeminiEndpoint(method: string, pathname: string): GeminiMatch {
  const path = pathname.replace(/\/+$/, '');
  const get = method === 'GET' || method === 'HEAD';
  if (path === MODELS) return get ? { kind: 'gemini-models', model: null } : { kind: 'wrong_method', allowed: 'GET' };
  if (!path.startsWith(`${MODELS}/`))
    return refused(404, `No Gemini API method at ${pathname}; Leeway serves ${MODELS}`);
  const rest = path.slice(MODELS.length + 1);
  const colon = rest.lastIndexOf(':');
  const model = modelOf(colon === -1 ? rest : rest.slice(0, colon));
  if (typeof model !== 'string') return model;
  if (colon === -1) return get ? { kind: 'gemini-models', model } : { kind: 'wrong_method', allowed: 'GET' };
  const call = rest.slice(colon + 1);
  if (!METHODS.includes(call)) {
    return refused(404, `Unknown method models/*:${call.slice(0, 64)}; use ${METHODS.join(', ')}`);
  }
  if (method !== 'POST') return { kind: 'wrong_method', allowed: 'POST' };
  if (call === 'countTokens') return { kind: 'gemini-count', model };
  const endpoint = call === 'generateContent' ? GENERATE : STREAM;
  // A fresh object per request: the model is this request's (only Gemini calls pay for it).
  return { kind: 'model', endpoint: { ...endpoint, urlModel: model } };
}

/** The model id in the path, percent-decoded (`conn%2Fmodel` names `conn/model`). */
function modelOf(raw: string): string | GeminiMatch {
  let model: string;
  try {
    model = decodeURIComponent(raw).trim();
  } catch {
    return refused(400, 'The model name in the path is not valid percent-encoding');
  }
  if (model.length === 0) return refused(400, 'The path must name a model: /v1beta/models/{model}:generateContent');
  if (model.length > MAX_MODEL_CHARS) return refused(400, `The model name is at most ${MAX_MODEL_CHARS} characters`);
  // A control character could forge a log line and is never in a model id.
  for (let i = 0; i < model.length; i++) {
    if (model.charCodeAt(i) < 0x20 || model.charCodeAt(i) === 0x7f)
      return refused(400, 'The model name must not hold control characters');
  }
  return model;
}

/** `?key=` as Google's SDKs and curl examples send the API key (only on the Gemini door). */
export function geminiQueryKey(search: string): string | null {
  if (search.length < 2) return null;
  const key = new URLSearchParams(search.slice(1)).get('key');
  return key !== null && key.trim().length > 0 ? key.trim() : null;
}

/** Google answers `:streamGenerateContent` without `alt=sse` as one JSON array; Leeway serves SSE only. */
export function asksForSse(search: string): boolean {
  return search.length > 1 && new URLSearchParams(search.slice(1)).get('alt') === 'sse';
}
