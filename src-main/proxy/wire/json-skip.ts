import { Ch, closingQuote, scalarEnd, skipSpace, stringEnd } from './json-tokens';

/**
 * Whole JSON values and containers skipped over the tokens of `json-tokens.ts`, strictly
 * (`skipValue`, as JSON.parse checks them) or structurally (`structureEnd`, brackets counted and
 * strings skipped). Both are iterative over one bracket stack, so no nesting depth can overflow
 * the call stack, and a stack grown by a hostile input's nesting is given back after its walk.
 */

const OBJ = 1;
const ARR = 2;

/** The open containers of the walk in progress (one walk at a time: synchronous, never re-entered). */
let stack = new Uint8Array(32);

function grown(s: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bigger = new Uint8Array(s.length * 2);
  bigger.set(s);
  stack = bigger;
  return bigger;
}

/** Ends a walk: a hostile input's deep nesting grew the stack, so that memory is given back. */
function done(result: number): number {
  if (stack.length > 1024) stack = new Uint8Array(32);
  return result;
}

/** Strict: past a key and its colon at `at` (after whitespace), or -1. */
function keyColonEnd(b: Buffer, at: number): number {
  const p = stringEnd(b, skipSpace(b, at));
  if (p === -1) return -1;
  const colon = skipSpace(b, p);
  return b[colon] === Ch.Colon ? colon + 1 : -1;
}

/** Strict: past the value at `at` (after whitespace), checked as JSON.parse would check it; -1 when invalid. */
export function skipValue(b: Buffer, at: number): number {
  let s = stack;
  let depth = 0;
  let p = at;
  for (;;) {
    p = skipSpace(b, p);
    const c = b[p];
    let closed = false;
    if (c === Ch.LBrace || c === Ch.LBracket) {
      p = skipSpace(b, p + 1);
      if (depth === s.length) s = grown(s);
      s[depth++] = c === Ch.LBrace ? OBJ : ARR;
      if (b[p] === (c === Ch.LBrace ? Ch.RBrace : Ch.RBracket)) {
        p++;
        depth--;
        closed = true;
      } else if (c === Ch.LBrace) {
        p = keyColonEnd(b, p);
        if (p === -1) return done(-1);
        continue;
      } else continue;
    }
    if (!closed) {
      p = scalarEnd(b, p);
      if (p === -1) return done(-1);
    }
    // After a value: a comma goes on to the next, a closing bracket ends its container.
    for (;;) {
      if (depth === 0) return done(p);
      p = skipSpace(b, p);
      const d = b[p];
      const container = s[depth - 1];
      if (d === Ch.Comma) {
        p++;
        if (container === OBJ) {
          p = keyColonEnd(b, p);
          if (p === -1) return done(-1);
        }
        break;
      }
      if ((container === OBJ && d === Ch.RBrace) || (container === ARR && d === Ch.RBracket)) {
        p++;
        depth--;
        continue;
      }
      return done(-1);
    }
  }
}

/** A key whose empty-string value a structural walk notes as it passes (`"signature": ""`). */
export interface EmptyValueWatch {
  /** The key with its quotes, as raw bytes. */
  key: Buffer;
  seen: boolean;
}

/** Whether the string closing at `close` (opened at `open`) is the watched key followed by `: ""`. */
function isEmptyValueOf(key: Buffer, b: Buffer, open: number, close: number): boolean {
  if (close - open + 1 !== key.length || b[open + 1] !== key[1]) return false;
  if (b.compare(key, 0, key.length, open, close + 1) !== 0) return false;
  const colon = skipSpace(b, close + 1);
  if (b[colon] !== Ch.Colon) return false;
  const value = skipSpace(b, colon + 1);
  return b[value] === Ch.Quote && b[value + 1] === Ch.Quote;
}

/**
 * Structural: the index of the bracket that closes the container whose `opener` bracket is open
 * at `from` (outside a string), or -1 when brackets do not match or it never closes. This loop tests
 * each byte outside strings against four brackets and a quote, nothing more; `watch` adds a length
 * test per string.
 */
export function structureEnd(b: Buffer, from: number, opener: number, watch: EmptyValueWatch | null): number {
  let s = stack;
  let depth = 0;
  s[depth++] = opener === Ch.LBrace ? Ch.RBrace : Ch.RBracket;
  const end = b.length;
  for (let i = from; i < end; i++) {
    const c = b[i];
    if (c === Ch.Quote) {
      const close = closingQuote(b, i);
      if (close === -1) return done(-1);
      if (watch !== null && !watch.seen && isEmptyValueOf(watch.key, b, i, close)) watch.seen = true;
      i = close;
    } else if (c === Ch.LBrace || c === Ch.LBracket) {
      if (depth === s.length) s = grown(s);
      s[depth++] = c === Ch.LBrace ? Ch.RBrace : Ch.RBracket;
    } else if (c === Ch.RBrace || c === Ch.RBracket) {
      if (s[--depth] !== c) return done(-1);
      if (depth === 0) return done(i);
    }
  }
  return done(-1);
}
