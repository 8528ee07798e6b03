import type { IncomingMessage } from 'node:http';
import type { ClientFormat } from './client-errors';

/** Anthropic clients announce themselves; everyone else gets OpenAI-shaped errors. */
export function guessFormat(req: IncomingMessage, pathname: string): ClientFormat {
  if (pathname.startsWith('/v1beta/') || req.headers['x-goog-api-key'] !== undefined) return 'gemini';
  if (pathname.startsWith('/v1/messages') || req.headers['anthropic-version'] !== undefined) return 'anthropic';
  if (req.headers['x-api-key'] !== undefined && !pathname.includes('chat/completions')) return 'anthropic';
  return 'openai';
}

/** The pathname of a request URL, without allocating when there is no query. */
export function pathnameOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const ANTHROPIC_HINTS = ['/v1/messages', 'anthropic-version', 'x-api-key'];

/**
 * The same guess from the raw bytes of a request Node could not parse (no IncomingMessage exists):
 * only the first kilobyte is looked at, case-insensitively.
 */
export function guessRawFormat(raw: Buffer | undefined): ClientFormat {
  if (!raw) return 'openai';
  const text = raw.subarray(0, 1024).toString('latin1').toLowerCase();
  if (text.includes('chat/completions')) return 'openai';
  return ANTHROPIC_HINTS.some((hint) => text.includes(hint)) ? 'anthropic' : 'openai';
}
