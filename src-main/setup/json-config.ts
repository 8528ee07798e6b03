import { fail, ok, type Result } from '../../src-shared/contract/errors';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON settings file as an object (absent or empty: `{}`); anything else is refused with its path. */
export function parseJsonObject(path: string, text: string | null): Result<Json> {
  if (text === null || text.trim() === '') return ok({});
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return ok(value);
  } catch {
    // Refused below, with the path.
  }
  return fail(
    'invalid_input',
    `${path} is not a JSON object (comments are not kept either); fix or move it, then try again (nothing was changed)`,
  );
}

/** The value at a path of object keys; undefined when any step is missing or not an object. */
export function getIn(value: unknown, keys: readonly string[]): unknown {
  let at = value;
  for (const k of keys) {
    if (!isObject(at)) return undefined;
    at = at[k];
  }
  return at;
}

/**
 * `patch` merged into `base` object by object: every key of `base` the patch does not name stays, in
 * its place; a patch value that is not an object replaces what was there.
 */
export function mergeJson(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const old = out[k];
    out[k] = isObject(v) && isObject(old) ? mergeJson(old, v) : v;
  }
  return out;
}

export const renderJson = (value: Json): string => `${JSON.stringify(value, null, 2)}\n`;

/** The next text of a JSON settings file with `patch` merged in. */
export function planJson(path: string, current: string | null, patch: Json): Result<string> {
  const parsed = parseJsonObject(path, current);
  return parsed.ok ? ok(renderJson(mergeJson(parsed.value, patch))) : parsed;
}

/** A string at `keys` in a JSON file (for status); a refusal when the file is not a JSON object. */
export function jsonString(path: string, current: string | null, keys: readonly string[]): Result<string | null> {
  if (current === null) return ok(null);
  const parsed = parseJsonObject(path, current);
  if (!parsed.ok) return parsed;
  const value = getIn(parsed.value, keys);
  return ok(typeof value === 'string' ? value : null);
}
