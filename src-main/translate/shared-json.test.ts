import { describe, expect, it } from 'vitest';
import { LONG_STRING, SharedJson } from './shared-json';

const long = (fill: string) => `"quoted" \\ ${fill.repeat(LONG_STRING)}\n\u2028é`;

describe('SharedJson', () => {
  it('issue 21 §2: writes exactly what JSON.stringify writes, in pieces around each long string', () => {
    const shared = new SharedJson();
    const text = long('a');
    const value = { type: 't', item: { content: [{ text }], other: 'x' }, list: [1, null, text, long('b')] };
    const out = shared.stringify(value);
    expect(out.data).toBe(JSON.stringify(value));
    expect(out.pieces?.join('')).toBe(JSON.stringify(value));
    expect(out.pieces?.filter((p) => p.length > LONG_STRING)).toHaveLength(3);
  });

  it('issue 21 §2: a long string is escaped once per stream: later events share the same escaped text', () => {
    const shared = new SharedJson();
    const text = long('a');
    const first = shared.stringify({ delta: text });
    const second = shared.stringify({ response: { output: [{ text }] } });
    const escaped = (out: { pieces?: string[] }) => out.pieces?.find((p) => p.length > LONG_STRING);
    expect(escaped(first)).toBe(JSON.stringify(text));
    // The very same string, not an equal copy: the bridge encodes it once.
    expect(Object.is(escaped(first), escaped(second))).toBe(true);
  });

  it('issue 21 §2: values without a long string are plain JSON without pieces', () => {
    const out = new SharedJson().stringify({ a: 'short', b: [1, 2] });
    expect(out).toEqual({ data: '{"a":"short","b":[1,2]}' });
  });

  it('issue 21 §2: a string equal to the marker cannot confuse it: the count is checked, plain JSON is written', () => {
    const shared = new SharedJson('M');
    const value = { short: 'M', text: long('a') };
    const out = shared.stringify(value);
    expect(out.data).toBe(JSON.stringify(value));
    expect(out.pieces).toBeUndefined();
  });
});
