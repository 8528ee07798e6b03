/** Where a JSON text first breaks the grammar, told without quoting any of it (it may hold a secret). */
export interface JsonSyntaxError {
  /** 1-based, as editors count. */
  line: number;
  column: number;
  problem: string;
}

type Expect = 'value' | 'value_or_close' | 'key' | 'key_or_close' | 'after_value';

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

function position(text: string, offset: number, problem: string): JsonSyntaxError {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1, problem };
}

/** End of the string starting at `start` (a quote), or the offset and problem where it breaks. */
function scanString(text: string, start: number): number | { at: number; problem: string } {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return { at: i, problem: 'line break or control character inside a string' };
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        HEX4.lastIndex = i + 2;
        if (!HEX4.test(text)) return { at: i, problem: 'malformed \\u escape' };
        i += 6;
        continue;
      }
      if (next === undefined || !ESCAPES.has(next)) return { at: i, problem: 'invalid escape in a string' };
      i += 2;
      continue;
    }
    i++;
  }
  return { at: start, problem: 'string never closed' };
}

/**
 * Finds the first syntax error in a text JSON.parse refused, with an explicit stack (no recursion:
 * a deeply nested file cannot overflow it). Null when the text is valid after all.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const stack: ('array' | 'object')[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const fail = (at: number, problem: string) => position(text, at, problem);
  for (;;) {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
    const c = text[i];
    const top = stack[stack.length - 1];
    if (expect === 'after_value') {
      if (top === undefined) return c === undefined ? null : fail(i, 'unexpected text after the end of the document');
      if (c === ',') [i, expect] = [i + 1, top === 'array' ? 'value' : 'key'];
      else if ((c === ']' && top === 'array') || (c === '}' && top === 'object')) [i, expect] = [i + 1, 'after_value'];
      else
        return fail(i, c === undefined ? 'unexpected end of file' : `expected ',' or '${top === 'array' ? ']' : '}'}'`);
      if (c !== ',') stack.pop();
      continue;
    }
    if (c === undefined) return fail(i, 'unexpected end of file');
    if (expect === 'key' || expect === 'key_or_close') {
      if (c === '}' && expect === 'key_or_close') {
        stack.pop();
        [i, expect] = [i + 1, 'after_value'];
        continue;
      }
      if (c !== '"') return fail(i, 'expected a property name in double quotes');
      const end = scanString(text, i);
      if (typeof end !== 'number') return fail(end.at, end.problem);
      i = end;
      while (i < text.length && WS.has(text.charCodeAt(i))) i++;
      if (text[i] !== ':') return fail(i, "expected ':' after a property name");
      [i, expect] = [i + 1, 'value'];
      continue;
    }
    if (c === ']' && expect === 'value_or_close') {
      stack.pop();
      [i, expect] = [i + 1, 'after_value'];
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c === '{' ? 'object' : 'array');
      [i, expect] = [i + 1, c === '{' ? 'key_or_close' : 'value_or_close'];
      continue;
    }
    if (c === '"') {
      const end = scanString(text, i);
      if (typeof end !== 'number') return fail(end.at, end.problem);
      [i, expect] = [end, 'after_value'];
      continue;
    }
    const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
    if (literal) {
      [i, expect] = [i + literal.length, 'after_value'];
      continue;
    }
    NUMBER.lastIndex = i;
    if ((c === '-' || (c >= '0' && c <= '9')) && NUMBER.test(text)) {
      [i, expect] = [NUMBER.lastIndex, 'after_value'];
      continue;
    }
    return fail(
      i,
      c === '-' || (c >= '0' && c <= '9')
        ? 'malformed number'
        : 'unexpected character (a value must be an object, array, string, number, true, false or null)',
    );
  }
}
