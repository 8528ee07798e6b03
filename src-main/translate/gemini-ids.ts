import { createHash } from 'node:crypto';
import { asString } from './json-narrow';

/**
 * Ids between Gemini and the other two formats. Gemini function calls may have no id (calls and
 * responses then pair by name and order), and the first call of a Gemini 3 model turn carries a
 * `thoughtSignature` the API wants back verbatim, or it answers 400. Chat and Anthropic clients
 * echo only what their format has, and every one of them echoes a tool call's id exactly (the
 * result must name it), so the signature travels inside the id a client sees.
 */

/** Google's documented stand-in for a signature Leeway does not have (history from another model). */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** A call id for a Gemini call without one, stable for the same history (prompt caches see the same bytes). */
export function geminiCallId(content: number, part: number): string {
  return `call_g${content}_${part}`;
}

/** OpenAI allows at most 40 characters and Anthropic only `[A-Za-z0-9_-]`; Gemini clients send any string. */
const UPSTREAM_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** A Gemini-side id as a Chat or Anthropic upstream accepts it; the same id always maps the same way. */
export function upstreamToolId(id: string): string {
  if (UPSTREAM_ID.test(id)) return id;
  return `call_${createHash('sha256').update(id).digest('hex').slice(0, 32)}`;
}

/** Marks a signature that was canonical base64 (re-encoded base64url) or any other text (its UTF-8 bytes). */
const SIG_MARK = '__sig';
const SIG_BASE64 = `${SIG_MARK}_`;
const SIG_TEXT = `${SIG_MARK}t_`;

/** The id a Chat or Anthropic client sees for a Gemini call: its id, plus its signature when it has one. */
export function clientToolId(id: string, signature: string | null): string {
  if (signature === null || signature === '' || signature === SKIP_SIGNATURE) return id;
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.toString('base64') === signature) return id + SIG_BASE64 + bytes.toString('base64url');
  return id + SIG_TEXT + Buffer.from(signature, 'utf8').toString('base64url');
}

export interface SplitToolId {
  id: string;
  signature: string | null;
}

/** The reverse of clientToolId: the Gemini call id and its signature (null when the id carried none). */
export function splitToolId(clientId: string): SplitToolId {
  // The first mark wins: the encoded signature after it may hold any base64url text, marks included.
  const at = clientId.indexOf(SIG_MARK);
  if (at <= 0) return { id: clientId, signature: null };
  const rest = clientId.slice(at);
  if (rest.startsWith(SIG_BASE64)) {
    const bytes = Buffer.from(rest.slice(SIG_BASE64.length), 'base64url');
    return { id: clientId.slice(0, at), signature: bytes.toString('base64') };
  }
  if (rest.startsWith(SIG_TEXT)) {
    const bytes = Buffer.from(rest.slice(SIG_TEXT.length), 'base64url');
    return { id: clientId.slice(0, at), signature: bytes.toString('utf8') };
  }
  return { id: clientId, signature: null };
}

const PREFIXES = ['chatcmpl-', 'msg_'];

/** Gemini's `responseId` from a Chat or Anthropic id: its unique part, as ids.ts keeps it. */
export function responseIdFrom(id: unknown, seed: string): string {
  const text = asString(id);
  if (!text) return seed;
  for (const prefix of PREFIXES) if (text.startsWith(prefix)) return text.slice(prefix.length);
  return text;
}
