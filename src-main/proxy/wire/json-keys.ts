import { Ch } from './json-tokens';

/** Object keys a scanner acts on, by index; made once per scanner. */
export interface KeyTable {
  bytes: readonly Buffer[];
  byName: ReadonlyMap<string, number>;
}

export function keyTable(names: readonly string[]): KeyTable {
  return { bytes: names.map((name) => Buffer.from(name)), byName: new Map(names.map((name, i) => [name, i])) };
}

/**
 * The index in `table` of the key spelled by the string `b[open, close]` (quotes included), or -1.
 * `mayEscape`: the string may hold an escape; then a key that matches no raw spelling is decoded
 * and looked up by what it means ("mod\u0065l" is `model`, as JSON.parse reads it).
 */
export function keyIndex(table: KeyTable, b: Buffer, open: number, close: number, mayEscape: boolean): number {
  const start = open + 1;
  const length = close - start;
  const names = table.bytes;
  for (let k = 0; k < names.length; k++) {
    const name = names[k];
    if (name === undefined || name.length !== length) continue;
    let i = 0;
    while (i < length && b[start + i] === name[i]) i++;
    if (i === length) return k;
  }
  if (!mayEscape) return -1;
  let slash = start;
  while (slash < close && b[slash] !== Ch.Backslash) slash++;
  if (slash === close) return -1;
  try {
    const name: unknown = JSON.parse(b.toString('utf8', open, close + 1));
    return typeof name === 'string' ? (table.byName.get(name) ?? -1) : -1;
  } catch {
    return -1;
  }
}
