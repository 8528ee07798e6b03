import { chainObservers, watchObserver, type ChunkObserver, type ObserverChain } from '../wire/chunk-observer';
import { createStreamEndKeeper, type StreamEndKeeper } from '../wire/stream-end';
import { createSecretScrubber } from './secret-scrubber';
import type { RelayInput } from './relay';

/** A relayed answer's observers, composed once per response. */
export interface RelayObservers {
  chain: ObserverChain;
  /**
   * Where the observers of what the client gets begin: the reads held before the commit start
   * there (the tap and the watchdog saw them already).
   */
  clientSide: number;
  /** Reads how the stream ended; null for a body that is not SSE. */
  ends: StreamEndKeeper | null;
}

/**
 * The usage tap and the watchdog read the upstream's reads; the scrubber masks the connection's
 * credentials (issue 21 §5: an upstream that echoes its key mid-stream); the stream-end keeper
 * reads what the client got, keeping only the head of the newest event block.
 */
export function relayObservers(input: RelayInput, isSse: boolean): RelayObservers {
  const list: ChunkObserver[] = input.watch ? [input.tap, watchObserver(input.watch)] : [input.tap];
  const clientSide = list.length;
  const scrub = createSecretScrubber(input.secrets);
  if (scrub) list.push(scrub);
  const ends = isSse ? createStreamEndKeeper(input.format) : null;
  if (ends) list.push(ends);
  return { chain: chainObservers(list), clientSide, ends };
}
