import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import type { ComboTarget } from '../../src-shared/domain/combo';
import type { ConnectionDraft } from '../../src-shared/domain/connection';
import { findJsonSyntaxError } from './json-syntax-error';
import { CONFIG_ROOT_KEYS, configComboSchema, configConnectionSchema, configFileSchema, configKeySchema, parseConnectionInput, toConnectionInput } from './config-schema';

export interface ConfigProblem {
  path: string;
  message: string;
}

/** A config file fully validated and converted, ready to be applied in one transaction. */
export interface LoadedConfig {
  connections: ConnectionDraft[];
  keys: { name: string; key: string }[];
  combos: { name: string; targets: ComboTarget[] }[];
}

export type LoadConfigResult = { ok: true; value: LoadedConfig } | { ok: false; problems: ConfigProblem[] };

const joinPath = (parts: readonly PropertyKey[]) => parts.map(String).join('.');

function issuesAt(prefix: string, error: z.ZodError): ConfigProblem[] {
  return error.issues.map((i) => ({ path: [prefix, joinPath(i.path)].filter((p) => p.length > 0).join('.') || '(root)', message: i.message }));
}

/**
 * Reads and checks a config file, collecting every problem (path + reason) rather than stopping at
 * the first. Secrets never appear in a problem message: zod messages name rules, not values.
 */
export function loadConfig(file: string, knownConnections: ReadonlySet<string>): LoadConfigResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return { ok: false, problems: [{ path: '(file)', message: `cannot read ${file} (${code})` }] };
  }
  return parseConfig(text, knownConnections);
}

export function parseConfig(text: string, knownConnections: ReadonlySet<string>): LoadConfigResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text around the error, which may be a key: say where, never what.
    const at = findJsonSyntaxError(text);
    const where = at ? `line ${at.line}, column ${at.column}: ${at.problem}` : 'syntax error';
    return { ok: false, problems: [{ path: '(file)', message: `not valid JSON at ${where}` }] };
  }
  const outline = configFileSchema.safeParse(raw);
  if (!outline.success) return { ok: false, problems: issuesAt('', outline.error) };
  const problems: ConfigProblem[] = Object.keys(outline.data)
    .filter((key) => !CONFIG_ROOT_KEYS.has(key))
    .map((key) => ({ path: key, message: 'unknown field (expected connections, keys, combos)' }));

  const connections: ConnectionDraft[] = [];
  const names = new Set<string>();
  outline.data.connections.forEach((entry, index) => {
    const at = `connections.${index}`;
    const c = configConnectionSchema.safeParse(entry);
    if (!c.success) return void problems.push(...issuesAt(at, c.error));
    if (names.has(c.data.name)) problems.push({ path: `${at}.name`, message: `duplicate connection name "${c.data.name}"` });
    names.add(c.data.name);
    const oauth = c.data.kind === 'claude-oauth';
    if (oauth && c.data.apiKey !== undefined) problems.push({ path: `${at}.apiKey`, message: 'claude-oauth connections take accessToken (and refreshToken), not apiKey' });
    if (!oauth && c.data.accessToken !== undefined) problems.push({ path: `${at}.accessToken`, message: `${c.data.kind} connections take apiKey, not accessToken` });
    const draft = parseConnectionInput(toConnectionInput(c.data));
    if (draft.success) connections.push(draft.data);
    else problems.push(...issuesAt(at, draft.error));
  });

  const keys: LoadedConfig['keys'] = [];
  outline.data.keys.forEach((entry, index) => {
    const k = configKeySchema.safeParse(entry);
    if (!k.success) return void problems.push(...issuesAt(`keys.${index}`, k.error));
    if (keys.some((other) => other.name === k.data.name)) problems.push({ path: `keys.${index}.name`, message: `duplicate key name "${k.data.name}"` });
    keys.push(k.data);
  });

  const combos: LoadedConfig['combos'] = [];
  outline.data.combos.forEach((entry, index) => {
    const combo = configComboSchema.safeParse(entry);
    if (!combo.success) return void problems.push(...issuesAt(`combos.${index}`, combo.error));
    combo.data.targets.forEach((t, ti) => {
      if (!names.has(t.connection) && !knownConnections.has(t.connection)) {
        problems.push({ path: `combos.${index}.targets.${ti}`, message: `unknown connection "${t.connection}"` });
      }
    });
    combos.push({ name: combo.data.name, targets: combo.data.targets.map((t) => ({ connection: t.connection, model: t.model })) });
  });

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { connections, keys, combos } };
}
