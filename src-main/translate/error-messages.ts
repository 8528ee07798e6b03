import type { ErrorMessageReader } from './translate-types';
import { asObject, asString, parseObject } from './json-narrow';

/** What an upstream error body says, in the upstream's own `type` vocabulary (see error-types.ts to map it). */
export interface UpstreamError {
  message: string;
  type: string;
  /** OpenAI's `code` (e.g. `rate_limit_exceeded`, `invalid_api_key`), which says more than its `type`. */
  code: string | null;
}

/** Plain-text bodies (an HTML 502 page, a proxy's one-liner) are cut so a client's error stays readable. */
const PLAIN_TEXT_MAX = 500;
const DEFAULT_TYPE = 'api_error';

function nonEmpty(value: unknown): string | null {
  const text = asString(value);
  return text !== null && text.length > 0 ? text : null;
}

/** Codes come as strings (`rate_limit_exceeded`) or numbers (GLM's 1302). */
function codeOf(value: unknown): string | null {
  return typeof value === 'number' ? String(value) : nonEmpty(value);
}

function plainText(text: string): UpstreamError {
  return { message: text.slice(0, PLAIN_TEXT_MAX).replace(/\s+/g, ' ').trim(), type: DEFAULT_TYPE, code: null };
}

/**
 * Reads Anthropic's `{type:"error",error:{type,message}}`, OpenAI's `{error:{message,type,code}}`,
 * the looser shapes OpenAI-compatible gateways send (`{error:"…"}`, `{message:"…",code}`,
 * `{detail:"…"}`) and plain text. Null when the body says nothing.
 */
export function readErrorMessage(bodyText: string): UpstreamError | null {
  const text = bodyText.trim();
  if (text.length === 0) return null;
  const body = text.startsWith('{') ? parseObject(text) : null;
  if (!body) return plainText(text);
  const error = asObject(body.error);
  if (error) {
    const message = nonEmpty(error.message) ?? codeOf(error.code) ?? nonEmpty(error.type);
    const code = codeOf(error.code);
    const type = nonEmpty(error.type) ?? code ?? DEFAULT_TYPE;
    if (message) return { message, type, code };
  }
  const flat = nonEmpty(body.error) ?? nonEmpty(body.message) ?? nonEmpty(body.detail);
  if (flat) {
    const code = codeOf(body.code);
    return { message: flat, type: nonEmpty(body.type) ?? code ?? DEFAULT_TYPE, code };
  }
  return plainText(text);
}

/** The contract's reader: just the message. */
export const readErrorText: ErrorMessageReader = (bodyText) => readErrorMessage(bodyText)?.message ?? null;
