import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import { continueBody } from './expect-continue';

/**
 * Reads a request body up to `limit` bytes; refuses early on a declared length over it, before a
 * client that sent `Expect: 100-continue` is told to send the body.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Result<Buffer>> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(tooLarge(limit));
  }
  continueBody(req, res);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Result<Buffer>) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Keep draining so the socket can still carry our 413 answer.
        req.resume();
        finish(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => finish(ok(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size))));
    req.on('error', () => finish(fail('invalid_input', 'The request body could not be read', { status: 400 })));
    req.on('aborted', () => finish(fail('invalid_input', 'The client aborted the request', { status: 400 })));
    // 'close' before 'end' means the body will never finish; once settled it is a no-op.
    req.on('close', () => finish(fail('invalid_input', 'The request body was cut short', { status: 400 })));
  });
}

function tooLarge(limit: number): Result<never> {
  return fail('body_too_large', `The request body exceeds the limit of ${limit} bytes`);
}
