import type { ServerResponse } from 'node:http';
import type { RelayInput, RelayOutcome } from './relay';
import type { RelayObservers } from './relay-observers';

const EMPTY = Buffer.alloc(0);

/** The held reads through the client-side observers, the last one joined with what they still held. */
function heldBytes(chunks: readonly Buffer[], { chain, clientSide }: RelayObservers): (Buffer | null)[] {
  const out: (Buffer | null)[] = [];
  const lastAt = chunks.length - 1;
  for (let i = 0; i < lastAt; i++) out.push(chain.onChunk(chunks[i] ?? EMPTY, clientSide));
  const last = chunks[lastAt];
  if (last) {
    const tail = chain.onChunk(last, clientSide);
    const rest = chain.onEnd();
    out.push(tail && rest ? Buffer.concat([tail, rest]) : (tail ?? rest));
  }
  return out;
}

/** A body held whole before the commit (and checked): written at once; its usage is already known. */
export function relayHeld(
  res: ServerResponse,
  input: RelayInput,
  observers: RelayObservers,
  ttfbMs: number | null,
): Promise<RelayOutcome> {
  const { start, tap } = input;
  const bytes = heldBytes(start.chunks, observers);
  const last = bytes.pop() ?? undefined;
  for (const chunk of bytes) if (chunk) res.write(chunk);
  return new Promise((resolve) => {
    // Settled once: a second resolve() is a no-op for the promise but still a trip into Node's
    // promise hooks, and 'close' follows the end callback on every kept-alive response.
    let settled = false;
    const done = (complete: boolean) => {
      if (settled) return;
      settled = true;
      res.off('close', onClose);
      const errorCode = complete ? null : 'client_closed';
      resolve({ complete, clientGone: !complete, ttfbMs, usage: start.usage ?? tap.finish(), errorCode });
    };
    const onClose = () => done(res.writableFinished);
    res.once('close', onClose);
    res.end(last, () => done(true));
  });
}
