import type { ConfigProblem } from './config-access';

type Env = Readonly<Record<string, string | undefined>>;

/** `$${` (a literal `${`), or `${NAME}` with a shell-style name, or a `${` that is neither. */
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\{/g;

/**
 * Replaces `${NAME}` in every string value of a parsed config file with the environment variable
 * NAME, so secrets can stay out of the file (issue 13 §8); `$${` writes a literal `${`. An unset
 * variable, or a `${` that does not form `${NAME}`, is a problem naming the value's path and the
 * variable — never the value, which may be a secret. Object keys are left as written.
 */
export function substituteEnv(raw: unknown, env: Env): { value: unknown; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];

  const inString = (text: string, path: string): string => {
    if (!text.includes('${')) return text;
    return text.replace(REFERENCE, (match, name: string | undefined) => {
      if (match === '$${') return '${';
      if (name === undefined) {
        problems.push({ path: path || '(file)', message: 'a "${" must start ${NAME} (write $${ for a literal "${")' });
        return match;
      }
      const value = env[name];
      if (value === undefined) {
        problems.push({ path: path || '(file)', message: `environment variable ${name} is not set` });
        return match;
      }
      return value;
    });
  };

  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') return inString(node, path);
    if (Array.isArray(node)) return node.map((item, index) => walk(item, join(path, String(index))));
    if (node !== null && typeof node === 'object') {
      // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, join(path, key))]));
    }
    return node;
  };

  return { value: walk(raw, ''), problems };
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
