import type { ChunkObserver } from '../wire/chunk-observer';

/**
 * Masks a connection's secrets in relayed body bytes (issue 21 §5: an upstream that echoes its key
 * in an error event after the stream started). The mask has the secret's length, so a held JSON
 * body keeps its content-length. A secret cut across two reads is caught by holding back a read's
 * tail only while it could be a secret's beginning; SSE reads end in a blank line, so in practice
 * nothing is held and a chunk with no secret is written as it came (no copy).
 */
export interface SecretScrubber extends ChunkObserver {
  /** The bytes to write now (null: all of them held back for the next read). */
  onChunk(chunk: Buffer): Buffer | null;
  /** What is still held back, at the end of the body. */
  onEnd(): Buffer | null;
}

interface Needle {
  bytes: Buffer;
  mask: Buffer;
}

/** Needles made once per list of secrets (a connection's list is itself made once, redact-secrets.ts). */
const made = new WeakMap<readonly string[], readonly Needle[]>();

function needlesOf(secrets: readonly string[]): readonly Needle[] {
  let needles = made.get(secrets);
  if (needles === undefined) {
    needles = secrets.map((secret) => {
      const bytes = Buffer.from(secret, 'utf8');
      const word = Buffer.from('[redacted]');
      const mask = Buffer.alloc(bytes.length, '*');
      word.copy(mask, 0, 0, Math.min(word.length, mask.length));
      return { bytes, mask };
    });
    made.set(secrets, needles);
  }
  return needles;
}

/** How many bytes at the end of `data` could be the start of a needle (0 when none could). */
function openTail(data: Buffer, needles: readonly Needle[]): number {
  let keep = 0;
  for (const { bytes } of needles) {
    const first = bytes[0];
    if (first === undefined) continue;
    const from = Math.max(0, data.length - bytes.length + 1);
    let at = data.indexOf(first, from);
    while (at !== -1) {
      const tail = data.length - at;
      if (tail > keep && data.subarray(at).equals(bytes.subarray(0, tail))) keep = tail;
      at = data.indexOf(first, at + 1);
    }
  }
  return keep;
}

/** A scrubber for one relayed body, or null when the connection has no secret to hide. */
export function createSecretScrubber(secrets: readonly string[]): SecretScrubber | null {
  if (secrets.length === 0) return null;
  const needles = needlesOf(secrets);
  let held: Buffer | null = null;
  return {
    onChunk(chunk) {
      let data = held === null ? chunk : Buffer.concat([held, chunk]);
      held = null;
      for (const { bytes, mask } of needles) {
        let at = data.indexOf(bytes);
        // Copied before the first change: the read's buffer may still be referenced (the usage tap).
        if (at !== -1 && data === chunk) data = Buffer.from(chunk);
        while (at !== -1) {
          mask.copy(data, at);
          at = data.indexOf(bytes, at + bytes.length);
        }
      }
      const keep = openTail(data, needles);
      if (keep === 0) return data;
      held = data.subarray(data.length - keep);
      return keep === data.length ? null : data.subarray(0, data.length - keep);
    },
    onEnd() {
      const rest = held;
      held = null;
      return rest;
    },
  };
}
