import type { ChunkWatch } from '../../resilience/watchdog/stream-watchdog';
import type { WatchdogDecision } from '../../resilience/watchdog/throughput-meter';

/** The one verdict an observer can give today: the watchdog's, which ends the stream (WATCH-6/7). */
export type StreamCut = Extract<WatchdogDecision, { kind: 'abort' }>;

/**
 * One reader of a relayed body's reads, as undici's decorator handlers are: the usage tap, the
 * stream-end keeper, the watchdog and the secret scrubber each implement it, and the relay composes
 * them once per stream (`chainObservers`) instead of calling each by hand.
 */
export interface ChunkObserver {
  /**
   * One read, in order. Returns the bytes to pass on (the read itself, other bytes, or null to hold
   * them back for a later read), or a cut: the observer only read the chunk, which still passes on,
   * and the stream ends after it.
   */
  onChunk(chunk: Buffer): Buffer | null | StreamCut;
  /** The body ended: the bytes still held back, or null. */
  onEnd(): Buffer | null;
}

/** Observers composed in order: each sees what the one before passed on. */
export interface ObserverChain {
  /** Runs one read through the observers from `from` (default: all); the bytes to write, or null. */
  onChunk(chunk: Buffer, from?: number): Buffer | null;
  /** The body ended: what the observers still held, passed down the rest of the chain; null when nothing. */
  onEnd(): Buffer | null;
  /** The first cut an observer gave; the caller ends the stream once the read's bytes are written. */
  readonly cut: StreamCut | null;
}

/** A class, not a literal with closures: one object per chain, twice per request (answer start, relay). */
class Chain implements ObserverChain {
  cut: StreamCut | null = null;

  constructor(private readonly observers: readonly ChunkObserver[]) {}

  onChunk(chunk: Buffer, from = 0): Buffer | null {
    const observers = this.observers;
    let bytes: Buffer | null = chunk;
    for (let i = from; i < observers.length && bytes !== null; i++) bytes = this.step(observers[i], bytes);
    return bytes;
  }

  onEnd(): Buffer | null {
    // What the observers before one released at the end passes it first; then it releases its own.
    let rest: Buffer | null = null;
    for (const observer of this.observers) {
      const passed: Buffer | null = rest === null ? null : this.step(observer, rest);
      const held = observer.onEnd();
      rest = passed !== null && held !== null ? Buffer.concat([passed, held]) : (passed ?? held);
    }
    return rest;
  }

  /** One observer's answer for `bytes`: what passes on (a cut is noted, the read passes). */
  private step(observer: ChunkObserver | undefined, bytes: Buffer): Buffer | null {
    const out = observer === undefined ? bytes : observer.onChunk(bytes);
    // Most observers pass the read on as it came: that costs one comparison.
    if (out === bytes || out === null || out instanceof Uint8Array) return out;
    this.cut ??= out;
    return bytes;
  }
}

export function chainObservers(observers: readonly ChunkObserver[]): ObserverChain {
  return new Chain(observers);
}

/** The attempt's throughput watchdog as an observer: it reads each upstream read and may cut (WATCH-1). */
export function watchObserver(watch: ChunkWatch): ChunkObserver {
  return {
    onChunk(chunk) {
      const decision = watch(chunk);
      return decision.kind === 'abort' ? decision : chunk;
    },
    onEnd: () => null,
  };
}
