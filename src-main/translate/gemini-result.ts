import type { Json } from './translate-types';
import { asArray, asObject, asString } from './json-narrow';
import { pick } from './gemini-fields';
import { done, type Step } from './refusal';
import { readMedia, type Media } from './gemini-media';

/**
 * A functionResponse's `response` object as tool-result text. Google's convention is `{output}`
 * for a result and `{error}` for a failure (Gemini CLI sends exactly these); such a lone string is
 * the text, an error marks the result as failed; anything else is the object as JSON. The media of
 * `functionResponse.parts` (multimodal results) travel with it.
 */
export interface ResultBody {
  output: string;
  isError: boolean;
  media: Media[];
}

function textOf(value: unknown): string {
  const text = asString(value);
  return text !== null ? text : JSON.stringify(value ?? null);
}

export function resultOf(functionResponse: Json, field: string): Step<ResultBody> {
  const response = asObject(functionResponse.response) ?? {};
  const keys = Object.keys(response);
  const isError = response.error !== undefined && response.error !== null;
  let output: string;
  if (keys.length === 0) output = '';
  else if (keys.length === 1 && (keys[0] === 'output' || keys[0] === 'error')) output = textOf(response[keys[0]]);
  else output = JSON.stringify(response);
  const media: Media[] = [];
  const parts = asArray(pick(functionResponse, 'parts')) ?? [];
  for (let k = 0; k < parts.length; k++) {
    const part = asObject(parts[k]);
    const read = part ? readMedia(part, `${field}.parts[${k}]`) : null;
    if (read && !read.ok) return read;
    if (read) media.push(read.value);
  }
  return done({ output, isError, media });
}
