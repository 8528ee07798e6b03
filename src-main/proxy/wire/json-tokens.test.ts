import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Ch,
  closingQuote,
  Literal,
  literalAt,
  numberEnd,
  numberRunEnd,
  numberValue,
  skipSpace,
  stringEnd,
} from './json-tokens';
import { keyIndex, keyTable } from './json-keys';
import { skipValue, structureEnd, type EmptyValueWatch } from './json-skip';

/** Whether the strict tokens read `text` as one whole JSON value (whitespace around it allowed). */
function strictWhole(text: string): boolean {
  const bytes = Buffer.from(text);
  const end = skipValue(bytes, 0);
  return end !== -1 && skipSpace(bytes, end) === bytes.length;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One small edit: a cut, an inserted or a dropped byte, so most edits break the text and some do not. */
const edited = fc
  .tuple(
    fc.json(),
    fc.nat(),
    fc.nat(2),
    fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '1', '-', 'e', '.', 't', ' ', '\u0001'),
  )
  .map(([text, at, op, byte]) => {
    const i = at % (text.length + 1);
    if (op === 0) return text.slice(0, i);
    if (op === 1) return text.slice(0, i) + byte + text.slice(i);
    return text.slice(0, i) + text.slice(i + 1);
  });

describe('JSON byte tokenizer (issue 22: one tokenizer for the usage scan and the body scan)', () => {
  it('issue 22: the strict tokens accept exactly what JSON.parse accepts, valid or broken', () => {
    fc.assert(fc.property(fc.json(), (text) => strictWhole(text) === true));
    fc.assert(
      fc.property(edited, (text) => {
        expect(strictWhole(text), JSON.stringify(text)).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('issue 22: the structural walk ends a valid container where the strict walk does', () => {
    const containers = fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()));
    fc.assert(
      fc.property(containers, fc.boolean(), (value, spaced) => {
        const bytes = Buffer.from(JSON.stringify(value, null, spaced ? 2 : undefined));
        expect(structureEnd(bytes, 1, bytes[0] ?? 0, null)).toBe(skipValue(bytes, 0) - 1);
      }),
    );
  });

  it('issue 22: a string ends where JSON.parse ends it, read strictly or by its closing quote', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const bytes = Buffer.from(JSON.stringify(value));
        expect(stringEnd(bytes, 0)).toBe(bytes.length);
        expect(closingQuote(bytes, 0)).toBe(bytes.length - 1);
      }),
    );
  });

  it('issue 22: a number token ends and reads as JSON.parse reads it; a run of number bytes is read as Number() reads it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.bigInt()), (n) => {
        const text = String(n);
        const bytes = Buffer.from(text);
        expect(numberEnd(bytes, 0)).toBe(bytes.length);
        expect(numberValue(bytes, 0, bytes.length)).toBe(JSON.parse(text));
      }),
    );
    for (const run of ['1-2', '+5', '-', '007', '1e400', '-0', '12.5e1'])
      expect(numberValue(Buffer.from(run), 0, numberRunEnd(Buffer.from(run), 0))).toBe(Number(run));
  });

  it('issue 22: literals are read only when whole', () => {
    const at = (text: string) => literalAt(Buffer.from(text), 0);
    expect([at('true'), at('false'), at('null'), at('tru'), at('nul'), at('x')]).toEqual([
      Literal.True,
      Literal.False,
      Literal.Null,
      Literal.None,
      Literal.None,
      Literal.None,
    ]);
  });

  it('issue 22: a key is found by what it means, its escaped spelling included', () => {
    const table = keyTable(['model', 'usage']);
    const find = (spelled: string, mayEscape = true) => {
      const bytes = Buffer.from(spelled);
      return keyIndex(table, bytes, 0, bytes.length - 1, mayEscape);
    };
    expect([find('"model"'), find('"usage"'), find('"mod\\u0065l"'), find('"models"'), find('"us\\"age"')]).toEqual([
      0, 1, 0, -1, -1,
    ]);
    expect(find('"mod\\u0065l"', false)).toBe(-1);
  });

  it('issue 12: the structural walk notes a watched key whose value is the empty string, at any depth', () => {
    const watch = (text: string) => {
      const seen: EmptyValueWatch = { key: Buffer.from('"signature"'), seen: false };
      const bytes = Buffer.from(text);
      structureEnd(bytes, 1, bytes[0] ?? 0, seen);
      return seen.seen;
    };
    expect(watch('[{"a":[{"signature" : ""}]}]')).toBe(true);
    expect(watch('[{"signature":"x"},"signature",{"text":"\\"signature\\":\\"\\""}]')).toBe(false);
  });

  it('ISSUE-8: nesting far deeper than any stack is walked, strictly and structurally, without overflowing', () => {
    const deep = Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(skipValue(deep, 0)).toBe(deep.length);
    expect(structureEnd(deep, 1, Ch.LBracket, null)).toBe(deep.length - 1);
    const unclosed = Buffer.from('['.repeat(200_000));
    expect(skipValue(unclosed, 0)).toBe(-1);
    expect(structureEnd(unclosed, 1, Ch.LBracket, null)).toBe(-1);
  });
});
