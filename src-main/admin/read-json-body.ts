import type { IncomingMessage } from 'node:http';
import { fail, ok, type Result } from '../../src-shared/contract/errors';

/** RPC inputs are small settings and forms; anything near a megabyte is a mistake or an attack. */
export const MAX_RPC_BODY_BYTES = 1024 * 1024;

/** True when the request says its body is JSON; the CSRF guard (cross-site-guard) relies on it. */
export function isJsonContentType(header: string | undefined): boolean {
  const mediaType = (header ?? '').split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * Reads and parses a JSON body up to `limit` bytes; an empty body means "no input".
 * Past the limit it stops buffering and keeps draining, so the client can still read the 413.
 */
export function readJsonBody(req: IncomingMessage, limit = MAX_RPC_BODY_BYTES): Promise<Result<unknown>> {
  const tooLarge = (): Result<never> => fail('body_too_large', `Request body is larger than ${limit} bytes`);
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(tooLarge());
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: Result<unknown>): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return settle(ok(undefined));
      try {
        settle(ok(JSON.parse(text) as unknown));
      } catch {
        // The parser's message quotes the body, which may hold secrets; say only what is wrong.
        settle(fail('invalid_json', 'Request body is not valid JSON'));
      }
    });
    req.on('error', () => settle(fail('invalid_json', 'Request body could not be read')));
    // 'close' before 'end' means the client left mid-body; once settled it is a no-op.
    req.on('close', () => settle(fail('invalid_json', 'Request body was cut short')));
  });
}
