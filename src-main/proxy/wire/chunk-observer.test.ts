import { describe, expect, it } from 'vitest';
import { chainObservers, watchObserver, type ChunkObserver, type StreamCut } from './chunk-observer';

const CUT: StreamCut = { kind: 'abort', reason: 'throughput_too_low', bytesPerSecond: 1, windowMs: 1000 };

/** An observer that notes what it saw, under a name. */
function noting(name: string, seen: string[], answer?: (chunk: Buffer) => Buffer | null | StreamCut): ChunkObserver {
  return {
    onChunk(chunk) {
      seen.push(`${name}:${chunk.toString()}`);
      return answer ? answer(chunk) : chunk;
    },
    onEnd: () => null,
  };
}

/** Holds back its reads until the end (as the scrubber does with a secret's possible start). */
function holding(): ChunkObserver {
  const held: Buffer[] = [];
  return {
    onChunk(chunk) {
      held.push(chunk);
      return null;
    },
    onEnd: () => (held.length > 0 ? Buffer.concat(held) : null),
  };
}

describe('observers composed as a list (issue 22)', () => {
  it('issue 22: each observer sees what the one before passed on, in order, and the last one decides what is written', () => {
    const seen: string[] = [];
    const chain = chainObservers([
      noting('tap', seen),
      noting('mask', seen, (chunk) => Buffer.from(chunk.toString().toUpperCase())),
      noting('keeper', seen),
    ]);
    expect(chain.onChunk(Buffer.from('ab'))?.toString()).toBe('AB');
    expect(chain.onChunk(Buffer.from('cd'), 1)?.toString()).toBe('CD');
    expect(seen).toEqual(['tap:ab', 'mask:ab', 'keeper:AB', 'mask:cd', 'keeper:CD']);
    expect(chain.cut).toBeNull();
  });

  it('issue 22: bytes held back reach the later observers only when released, at the end', () => {
    const seen: string[] = [];
    const chain = chainObservers([noting('tap', seen), holding(), noting('keeper', seen)]);
    expect(chain.onChunk(Buffer.from('x'))).toBeNull();
    expect(chain.onChunk(Buffer.from('y'))).toBeNull();
    expect(chain.onEnd()?.toString()).toBe('xy');
    expect(seen).toEqual(['tap:x', 'tap:y', 'keeper:xy']);
  });

  it('WATCH-6/7: a cut lets its read pass on (the relay writes it, then ends the stream) and the first cut is kept', () => {
    const seen: string[] = [];
    const chain = chainObservers([noting('watch', seen, () => CUT), noting('keeper', seen)]);
    expect(chain.onChunk(Buffer.from('slow'))?.toString()).toBe('slow');
    expect(chain.cut).toBe(CUT);
    expect(seen).toEqual(['watch:slow', 'keeper:slow']);
  });

  it('WATCH-1: the watchdog observer passes reads on until its watch says abort', () => {
    let calls = 0;
    const observer = watchObserver(() => (++calls < 2 ? { kind: 'ok' } : CUT));
    const chunk = Buffer.from('a');
    expect(observer.onChunk(chunk)).toBe(chunk);
    expect(observer.onChunk(chunk)).toBe(CUT);
    expect(observer.onEnd()).toBeNull();
  });
});
