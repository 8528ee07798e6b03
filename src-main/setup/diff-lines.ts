import type { DiffLine } from '../../src-shared/contract/methods';

/** Past this many lines on a side, the diff is "everything removed, everything added" (still correct). */
const MAX_LCS_LINES = 2_000;

/**
 * A line diff (longest common subsequence) of two small texts, for "shows the change before it is
 * applied": each line once, marked same / removed / added, in order.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  if (a.length > MAX_LCS_LINES || b.length > MAX_LCS_LINES) {
    return [...a.map((text) => line('removed', text)), ...b.map((text) => line('added', text))];
  }
  // lengths[i][j]: the LCS length of a[i..] and b[j..], filled from the end.
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lengths[i] ?? [];
    const below = lengths[i + 1] ?? [];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ai = a[i] ?? '';
    const bj = b[j] ?? '';
    if (ai === bj) {
      out.push(line('same', ai));
      i++;
      j++;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) {
      out.push(line('removed', ai));
      i++;
    } else {
      out.push(line('added', bj));
      j++;
    }
  }
  for (; i < a.length; i++) out.push(line('removed', a[i] ?? ''));
  for (; j < b.length; j++) out.push(line('added', b[j] ?? ''));
  return out;
}

function line(kind: DiffLine['kind'], text: string): DiffLine {
  return { kind, text };
}
