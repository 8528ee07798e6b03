import type { Dispatcher } from 'undici';

/** Error bodies are small; past this the rest is dropped (the client still gets the first part). */
export const ERROR_BODY_CAP = 256 * 1024;

/**
 * Reads an upstream error body whole (bounded in size and time) so it can be classified, then
 * relayed or dropped. `timeoutMs` (setting errorBodyTimeoutMs) keeps a stalled body from holding
 * failover for the idle limit.
 */
export async function readUpstreamBody(
  body: Dispatcher.ResponseData['body'],
  cap: number,
  timeoutMs: number,
): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Destroying the body ends the loop below with an error, and undici closes the stalled socket.
  const timer = setTimeout(() => body.destroy(new Error(`upstream error body stalled for ${timeoutMs} ms`)), timeoutMs);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        body.destroy();
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch {
    // A body cut short still says something; classify what arrived.
    if (size === 0) return null;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, size);
}
