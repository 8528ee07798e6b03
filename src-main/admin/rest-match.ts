import { fail, ok, type Result } from '../../src-shared/contract/errors';

export type PathParams = Readonly<Record<string, string>>;

/** A path pattern such as `/api/quota/pools/:id/usage`: literal segments, and `:name` for exactly one segment. */
export interface PathPattern {
  readonly pattern: string;
  /** null when the path has another shape; a refusal when a parameter is not a usable segment. */
  match(pathname: string): Result<PathParams> | null;
}

/** Longer is no name or id Leeway ever makes; refusing it keeps error messages and lookups small. */
const MAX_PARAM_LENGTH = 256;

type Segment = { kind: 'literal'; text: string } | { kind: 'param'; name: string };

function decodeParam(name: string, raw: string): Result<string> {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return fail('invalid_input', `${name}: malformed percent-encoding in the path`);
  }
  if (value.trim().length === 0) return fail('invalid_input', `${name}: must not be blank`);
  if (value.length > MAX_PARAM_LENGTH)
    return fail('invalid_input', `${name}: longer than ${MAX_PARAM_LENGTH} characters`);
  return ok(value);
}

/** Compiles a pattern once; matching splits on `/` and compares segment by segment (no regular expressions). */
export function compilePath(pattern: string): PathPattern {
  const segments: Segment[] = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? { kind: 'param', name: part.slice(1) } : { kind: 'literal', text: part }));
  return {
    pattern,
    match(pathname) {
      const parts = pathname.split('/');
      if (parts.length !== segments.length) return null;
      const raw: Array<[string, string]> = [];
      for (let i = 0; i < segments.length; i++) {
        const segment = segments[i];
        const part = parts[i] ?? '';
        if (segment === undefined) return null;
        if (segment.kind === 'literal') {
          if (segment.text !== part) return null;
        } else if (part === '') return null;
        else raw.push([segment.name, part]);
      }
      const params: Record<string, string> = {};
      for (const [name, part] of raw) {
        const value = decodeParam(name, part);
        if (!value.ok) return value;
        params[name] = value.value;
      }
      return ok(params);
    },
  };
}
