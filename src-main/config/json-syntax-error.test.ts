import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax-error';

const accepts = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('JSON syntax error position', () => {
  it('ISSUE-8: points at the first character JSON.parse refuses, 1-based, across lines', () => {
    expect(findJsonSyntaxError('{\n  "a": 1,\n  "b": tru\n}')).toMatchObject({ line: 3, column: 8 });
    expect(findJsonSyntaxError('{"a": 1,}')).toMatchObject({
      line: 1,
      column: 9,
      problem: 'expected a property name in double quotes',
    });
    expect(findJsonSyntaxError('{"a": "x\ny"}')).toMatchObject({ line: 1, column: 9 });
    expect(findJsonSyntaxError('[1, 2')).toMatchObject({ problem: 'unexpected end of file' });
    expect(findJsonSyntaxError('{"a" 1}')).toMatchObject({ column: 6, problem: "expected ':' after a property name" });
    expect(findJsonSyntaxError('{} x')).toMatchObject({
      column: 4,
      problem: 'unexpected text after the end of the document',
    });
  });

  it('ISSUE-8: agrees with JSON.parse on what is valid', () => {
    const samples = [
      '{}',
      '[]',
      ' {"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n"]} ',
      '"x"',
      '0',
      '-0.1',
      '{"a":{"b":[[]]}}',
      '',
      '{',
      '[1,]',
      '01',
      '1.',
      '-',
      '"\\x"',
      '"\\u12"',
      '{"a":1 "b":2}',
      "{'a':1}",
      'nul',
      '[1]]',
      '\uFEFF{}',
      '{"a":1}}',
      '['.repeat(10_000) + ']'.repeat(10_000),
    ];
    for (const text of samples)
      expect(findJsonSyntaxError(text) === null, JSON.stringify(text.slice(0, 40))).toBe(accepts(text));
  });
});
