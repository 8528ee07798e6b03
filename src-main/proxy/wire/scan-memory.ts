const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** A large top-level container of an earlier body, kept so the next body can skip the same bytes. */
interface Remembered {
  body: Buffer;
  /** The top-level key, as its raw bytes spell it (latin1, quotes included). */
  key: string;
  /** [start, end]: the opening and the closing bracket. */
  start: number;
  end: number;
  emptySignature: boolean;
}

/**
 * What an earlier body says about the container opening at `at`: `same` — byte for byte the one
 * remembered, so it ends at `end`; `grown` — the remembered array with elements appended, so the
 * scan resumes at `resumeAt` (where the old closing bracket was: depth one, outside any string).
 */
export type Recall =
  | { kind: 'same'; end: number; emptySignature: boolean }
  | { kind: 'grown'; resumeAt: number; emptySignature: boolean }
  | null;

export interface ScanMemory {
  recall(raw: Buffer, key: string, at: number): Recall;
  remember(raw: Buffer, key: string, start: number, end: number, emptySignature: boolean): void;
}

/** Containers smaller than this are scanned again: cheaper than comparing and remembering them. */
export const REMEMBER_MIN_BYTES = 4 * 1024;

/**
 * Claude Code sends its system prompt and two dozen tool schemas again on every turn, and the
 * messages array only grows: scanning those 70 KB each time was the largest cost Leeway added to
 * such a request. The memory keeps the last few large top-level containers (a reference to their
 * body, no copy) and the scan skips a container whose bytes are the same (one memcmp, which fails
 * at the first differing byte), or only scans what was appended to an array. Nothing is trusted
 * without comparing bytes, so a body is read exactly as a full scan would read it.
 */
export function createScanMemory(capacity = 12): ScanMemory {
  const entries: Remembered[] = [];
  return {
    recall(raw, key, at) {
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i];
        if (e === undefined || e.key !== key) continue;
        const length = e.end - e.start + 1;
        if (at + length > raw.length) continue;
        // Everything but the closing bracket first: it decides both shapes.
        if (raw.compare(e.body, e.start, e.end, at, at + length - 1) !== 0) continue;
        const closing = raw[at + length - 1];
        if (closing === e.body[e.end]) return { kind: 'same', end: at + length - 1, emptySignature: e.emptySignature };
        if (e.body[e.start] === OPEN_ARRAY && e.body[e.end] === CLOSE_ARRAY)
          return { kind: 'grown', resumeAt: at + length - 1, emptySignature: e.emptySignature };
      }
      return null;
    },
    remember(raw, key, start, end, emptySignature) {
      if (end - start + 1 < REMEMBER_MIN_BYTES) return;
      // One entry per key and shape at most: the newest body replaces an older one of the same key.
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i];
        if (e !== undefined && e.key === key && e.body !== raw && sameStart(e, raw, start)) {
          entries.splice(i, 1);
          break;
        }
      }
      entries.push({ body: raw, key, start, end, emptySignature });
      if (entries.length > capacity) entries.shift();
    },
  };
}

/** Whether the remembered container and the new one begin with the same bytes (same conversation). */
function sameStart(e: Remembered, raw: Buffer, start: number): boolean {
  const probe = Math.min(256, e.end - e.start + 1, raw.length - start);
  return raw.compare(e.body, e.start, e.start + probe, start, start + probe) === 0;
}
