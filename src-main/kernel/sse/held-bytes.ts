const NONE = Buffer.alloc(0);

/**
 * The bytes of an unfinished line (or the head of an unfinished block) kept across reads, as the
 * pieces they came in: joined once, when the line ends, so a line that spans many reads is never
 * re-concatenated or re-searched (each byte is searched once, issue 21 §2).
 */
export class HeldBytes {
  pieces: Buffer[] = [];
  size = 0;

  /** Keeps `piece`: a view (it pins its read until taken) or, with `copy`, its own bytes. */
  add(piece: Buffer, copy: boolean): void {
    this.pieces.push(copy ? Buffer.from(piece) : piece);
    this.size += piece.length;
  }

  /** Keeps what fits of `piece` under `cap` bytes in all (a head), always as a copy. */
  addHead(piece: Buffer, from: number, cap: number): void {
    if (from >= piece.length || this.size >= cap) return;
    // A copy: a view would pin the whole read for as long as the head is kept.
    this.add(piece.subarray(from, Math.min(piece.length, from + cap - this.size)), true);
  }

  /** The kept bytes, then `tail`, as one buffer (a kept piece itself when it is all); empties the holder. */
  take(tail: Buffer = NONE): Buffer {
    const { pieces, size } = this;
    let whole: Buffer;
    if (pieces.length === 0) whole = tail;
    else if (pieces.length === 1 && tail.length === 0) whole = pieces[0] ?? NONE;
    else {
      if (tail.length > 0) pieces.push(tail);
      whole = Buffer.concat(pieces, size + tail.length);
    }
    this.clear();
    return whole;
  }

  clear(): void {
    if (this.pieces.length > 0) this.pieces = [];
    this.size = 0;
  }
}
