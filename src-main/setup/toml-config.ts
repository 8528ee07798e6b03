import { isDeepStrictEqual } from 'node:util';
import { parse, TomlError } from 'smol-toml';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { isObject, type Json } from './json-config';

/** A table header line (`[a.b]`, `[[a]]`); an array row such as `  [1, 2],` is not one. */
const HEADER = /^\s*\[\[?\s*[\w"'. -]+\]\]?\s*(?:#.*)?$/;

/** A TOML document as an object; a file TOML cannot parse is refused with its path and line. */
export function parseToml(path: string, text: string | null): Result<Json> {
  if (text === null) return ok({});
  try {
    return ok(parse(text));
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line})` : '';
    return fail(
      'invalid_input',
      `${path} is not valid TOML${where}; fix or move it, then try again (nothing was changed)`,
    );
  }
}

/** A parsed document as plain objects: smol-toml's tables have no prototype, which deep equality would count. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

const sectionEnd = (lines: string[], from: number): number => {
  const i = lines.findIndex((line, at) => at >= from && HEADER.test(line));
  return i === -1 ? lines.length : i;
};

/** Sets `key = literal` among the root keys (before the first table), in place or at the top. */
export function setRootKey(lines: string[], key: string, literal: string): string[] {
  const rootEnd = sectionEnd(lines, 0);
  const pattern = new RegExp(`^\\s*${key}\\s*=`);
  const at = lines.findIndex((line, i) => i < rootEnd && pattern.test(line));
  if (at === -1) return [`${key} = ${literal}`, ...(lines.length > 0 && lines[0] !== '' ? [''] : []), ...lines];
  return lines.map((line, i) => (i === at ? `${key} = ${literal}` : line));
}

/** Replaces the table whose header matches (up to the next header) with `block`, or appends it. */
export function replaceTable(lines: string[], header: RegExp, block: string[]): string[] {
  const start = lines.findIndex((line) => header.test(line));
  if (start === -1) {
    const body = lines.length > 0 && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
    return [...body, ...(body.length > 0 ? [''] : []), ...block, ''];
  }
  let end = sectionEnd(lines, start + 1);
  // Comments and blank lines just above the next header belong to it, not to the table replaced.
  while (end > start + 1 && /^\s*(?:#.*)?$/.test(lines[end - 1] ?? '')) end--;
  const rest = lines.slice(end);
  const gap = rest.length > 0 && (rest[0] ?? '').trim() !== '' ? [''] : [];
  return [...lines.slice(0, start), ...block, ...gap, ...rest];
}

/**
 * Edits the text (so the user's comments and layout stay) and then proves the edit with the parser:
 * the new document must equal the old one with exactly `expected` applied, else it is refused.
 */
export function editTomlChecked(
  path: string,
  current: string | null,
  edit: (lines: string[]) => string[],
  expected: (parsed: Json) => Json | null,
): Result<string> {
  const before = parseToml(path, current);
  if (!before.ok) return before;
  const want = expected(before.value);
  const lines = current === null || current === '' ? [] : current.split('\n');
  const next = edit(lines).join('\n');
  const after = parseToml(path, next);
  if (want && after.ok && isDeepStrictEqual(plain(after.value), plain(want)))
    return ok(next.endsWith('\n') ? next : `${next}\n`);
  return fail(
    'invalid_input',
    `${path} defines Leeway's entries in a form Leeway cannot edit safely (an inline table?); remove them and try again (nothing was changed)`,
  );
}

export { isObject };
