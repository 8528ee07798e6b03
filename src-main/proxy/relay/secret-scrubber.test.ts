import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretScrubber } from './secret-scrubber';

const SECRET = 'sk-ant-api03-SECRET-0123456789abcdef';
const MASK = '[redacted]'.padEnd(SECRET.length, '*');

/** Every piece the scrubber lets out, in order, as one string. */
function scrubbed(secrets: readonly string[], pieces: readonly Buffer[]): string {
  const scrub = createSecretScrubber(secrets);
  if (scrub === null) return Buffer.concat([...pieces]).toString('utf8');
  const out: Buffer[] = [];
  for (const piece of pieces) {
    const written = scrub.onChunk(piece);
    if (written) out.push(written);
  }
  const rest = scrub.onEnd();
  if (rest) out.push(rest);
  return Buffer.concat(out).toString('utf8');
}

/** `text` cut at the given offsets. */
function cut(text: string, offsets: readonly number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

describe('secret scrubber (issue 21 §5)', () => {
  it('issue 21 §5 PROD-18: a secret is masked wherever the reads cut it, and the length never changes', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.string({ maxLength: 80 }),
        fc.array(fc.nat(400), { maxLength: 8 }),
        (before, after, offsets) => {
          const text = `data: {"error":"${before}${SECRET}${after}${SECRET}"}\n\n`;
          const out = scrubbed([SECRET], cut(text, offsets));
          expect(out).not.toContain(SECRET);
          expect(Buffer.byteLength(out)).toBe(Buffer.byteLength(text));
          expect(out).toBe(text.replaceAll(SECRET, MASK));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('issue 21 §5: bytes with no secret pass through in their own buffers, nothing held back', () => {
    const scrub = createSecretScrubber([SECRET]);
    const chunk = Buffer.from('event: content_block_delta\ndata: {"delta":{"text":"sk"}}\n\n');
    expect(scrub?.onChunk(chunk)).toBe(chunk);
    expect(scrub?.onEnd()).toBeNull();
  });

  it('issue 21 §5: a read ending in what could begin a secret is held until the next read says', () => {
    const scrub = createSecretScrubber([SECRET]);
    expect(scrub?.onChunk(Buffer.from('abc sk-ant'))?.toString()).toBe('abc ');
    expect(scrub?.onChunk(Buffer.from('-not-it'))?.toString()).toBe('sk-ant-not-it');
  });

  it('issue 21 §5: no secrets, no scrubber', () => {
    expect(createSecretScrubber([])).toBeNull();
  });
});
