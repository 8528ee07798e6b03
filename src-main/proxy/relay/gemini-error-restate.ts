import { asObject, asString } from '../../translate/json-narrow';
import {
  anthropicErrorFromGemini,
  geminiErrorBody,
  openaiErrorFromGemini,
  readGeminiError,
} from '../../translate/gemini-errors';
import { readErrorMessage } from '../../translate/error-messages';
import type { Json } from '../../translate/translate-types';
import type { ClientFormat } from './client-errors';

/**
 * Issue 23 §1: Google's error envelope across dialects. A Gemini client gets every upstream error
 * as `{error:{code,message,status}}`; an Anthropic or OpenAI client gets a Gemini upstream's error
 * in its own envelope, its kind read from Google's status (RESOURCE_EXHAUSTED → rate limit).
 * Null when this is not a Gemini case or the body says nothing (the caller's own restatement runs).
 */
export function restatedGeminiError(format: ClientFormat, value: Json, text: string, status: number): Json | null {
  const google = asString(asObject(value.error)?.status) !== null ? readGeminiError(value, status) : null;
  if (format === 'gemini') {
    if (google) return { error: { code: google.code, message: google.message, status: google.status } };
    const read = readErrorMessage(text);
    return read ? geminiErrorBody(status, read.message) : null;
  }
  if (!google) return null;
  return format === 'anthropic' ? anthropicErrorFromGemini(google) : openaiErrorFromGemini(google);
}

/** Google's envelope as a Gemini client's SDK reads it: a numeric code, a message and a status word. */
export function isGeminiErrorBody(value: Record<string, unknown>): boolean {
  const error = asObject(value.error);
  return typeof error?.code === 'number' && typeof error.message === 'string' && typeof error.status === 'string';
}
