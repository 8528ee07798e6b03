import { readFileSync } from 'node:fs';
import type { ComboStrategy, ComboTarget } from '../../src-shared/domain/combo';
import type { ConnectionDraft } from '../../src-shared/domain/connection';
import type { QuotaPoolSpec } from '../../src-shared/domain/quota';
import type { Route } from '../../src-shared/domain/route';
import { substituteEnv } from './env-substitution';
import { findJsonSyntaxError } from './json-syntax-error';
import { checkKeys, checkRoutes, issuesAt, type ConfigKey, type ConfigProblem } from './config-access';
import { checkPlans, checkPools, type ConfigPlan } from './config-quota';
import {
  CONFIG_ROOT_KEYS,
  configComboSchema,
  configConnectionSchema,
  configFileSchema,
  parseConnectionInput,
  toConnectionInput,
} from './config-schema';
import { capabilitiesOf } from '../kernel/provider-capabilities';

export type { ConfigProblem } from './config-access';

/** A config file fully validated and converted, ready to be applied in one transaction. */
export interface LoadedConfig {
  connections: ConnectionDraft[];
  keys: ConfigKey[];
  combos: { name: string; targets: ComboTarget[]; strategy: ComboStrategy }[];
  /** `null` when the file has no `routes`: the stored ones stay. */
  routes: Route[] | null;
  /** Quota pools, upserted by name (stored pools the file does not name stay). */
  pools: QuotaPoolSpec[];
  /** Manual plan overrides by connection name. */
  plans: ConfigPlan[];
}

/** What the database already holds besides connection names, for judging a route's `to`. */
export interface StoredNames {
  combos: ReadonlySet<string>;
  /** Models and aliases the stored connections list. */
  models: ReadonlySet<string>;
  /** Active (not revoked) local keys, which a file's pool may name. */
  keys: ReadonlySet<string>;
}

const NOTHING_STORED: StoredNames = { combos: new Set(), models: new Set(), keys: new Set() };

/** The stored combos, listed models and active keys, so a file may name what the dashboard created. */
export function storedNamesOf(repos: {
  connections: { list(): readonly { models: readonly string[]; modelAliases: Readonly<Record<string, string>> }[] };
  combos: { list(): readonly { name: string }[] };
  keys: { list(): readonly { name: string; revokedAt: number | null }[] };
}): StoredNames {
  const models = new Set<string>();
  for (const c of repos.connections.list())
    for (const m of [...c.models, ...Object.keys(c.modelAliases)]) models.add(m);
  const keys = new Set(repos.keys.list().flatMap((k) => (k.revokedAt === null ? [k.name] : [])));
  return { combos: new Set(repos.combos.list().map((c) => c.name)), models, keys };
}

export type LoadConfigResult = { ok: true; value: LoadedConfig } | { ok: false; problems: ConfigProblem[] };

/** Where `${NAME}` references in the file are looked up: the environment the entry read at start. */
type Env = Readonly<Record<string, string | undefined>>;

/** A file parsed without an environment (tests of the checks alone): every `${NAME}` is unset. */
const NO_VARIABLES: Env = {};

/**
 * Reads and checks a config file, collecting every problem (path + reason) rather than stopping at
 * the first. Secrets never appear in a problem message: zod messages name rules, not values.
 */
export function loadConfig(
  file: string,
  knownConnections: ReadonlySet<string>,
  stored: StoredNames = NOTHING_STORED,
  env: Env,
): LoadConfigResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return { ok: false, problems: [{ path: '(file)', message: `cannot read ${file} (${code})` }] };
  }
  return parseConfig(text, knownConnections, stored, env);
}

export function parseConfig(
  text: string,
  knownConnections: ReadonlySet<string>,
  stored: StoredNames = NOTHING_STORED,
  env: Env = NO_VARIABLES,
): LoadConfigResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text around the error, which may be a key: say where, never what.
    const at = findJsonSyntaxError(text);
    const where = at ? `line ${at.line}, column ${at.column}: ${at.problem}` : 'syntax error';
    return { ok: false, problems: [{ path: '(file)', message: `not valid JSON at ${where}` }] };
  }
  // Before validation, so a substituted value is checked like one written in the file.
  const substituted = substituteEnv(parsed, env);
  const checked = checkConfig(substituted.value, knownConnections, stored);
  if (substituted.problems.length === 0) return checked;
  // Issue 21 §17: every problem at once, not the unset variables alone. A value whose variable is
  // unset still holds its `${NAME}`: what the value's own checks say about that text repeats the cause.
  const unset = substituted.problems.map((p) => p.path);
  const covered = (path: string) => unset.some((u) => path === u || path.startsWith(`${u}.`));
  const others = checked.ok ? [] : checked.problems.filter((p) => !covered(p.path));
  return { ok: false, problems: [...substituted.problems, ...others] };
}

/** Validates and converts a parsed (and substituted) config, collecting every problem. */
function checkConfig(raw: unknown, knownConnections: ReadonlySet<string>, stored: StoredNames): LoadConfigResult {
  const outline = configFileSchema.safeParse(raw);
  if (!outline.success) return { ok: false, problems: issuesAt('', outline.error) };
  const problems: ConfigProblem[] = Object.keys(outline.data)
    .filter((key) => !CONFIG_ROOT_KEYS.has(key))
    .map((key) => ({ path: key, message: 'unknown field (expected connections, keys, combos, routes, pools, plans)' }));

  const connections: ConnectionDraft[] = [];
  const names = new Set<string>(knownConnections);
  const fileNames = new Set<string>();
  outline.data.connections.forEach((entry, index) => {
    const at = `connections.${index}`;
    const c = configConnectionSchema.safeParse(entry);
    if (!c.success) return void problems.push(...issuesAt(at, c.error));
    if (fileNames.has(c.data.name))
      problems.push({ path: `${at}.name`, message: `duplicate connection name "${c.data.name}"` });
    fileNames.add(c.data.name);
    names.add(c.data.name);
    const oauth = capabilitiesOf(c.data.kind).usesOAuth;
    if (oauth && c.data.apiKey !== undefined)
      problems.push({
        path: `${at}.apiKey`,
        message: 'claude-oauth connections take accessToken (and refreshToken), not apiKey',
      });
    if (!oauth && c.data.accessToken !== undefined)
      problems.push({ path: `${at}.accessToken`, message: `${c.data.kind} connections take apiKey, not accessToken` });
    const draft = parseConnectionInput(toConnectionInput(c.data));
    if (draft.success) connections.push(draft.data);
    else problems.push(...issuesAt(at, draft.error));
  });

  const keys = checkKeys(outline.data.keys, names, problems);

  const combos: LoadedConfig['combos'] = [];
  outline.data.combos.forEach((entry, index) => {
    const combo = configComboSchema.safeParse(entry);
    if (!combo.success) return void problems.push(...issuesAt(`combos.${index}`, combo.error));
    combo.data.targets.forEach((t, ti) => {
      if (!names.has(t.connection)) {
        problems.push({ path: `combos.${index}.targets.${ti}`, message: `unknown connection "${t.connection}"` });
      }
    });
    combos.push({
      name: combo.data.name,
      targets: combo.data.targets.map((t) => ({
        connection: t.connection,
        model: t.model,
        ...('weight' in t && t.weight !== undefined ? { weight: t.weight } : {}),
      })),
      strategy: combo.data.strategy,
    });
  });

  const listed = new Set(stored.models);
  for (const c of connections) for (const m of [...c.models, ...Object.keys(c.modelAliases)]) listed.add(m);
  const known = {
    combos: new Set([...stored.combos, ...combos.map((c) => c.name)]),
    connections: names,
    models: listed,
  };
  const routes = outline.data.routes === undefined ? null : checkRoutes(outline.data.routes, known, problems);

  const keyNames = new Set([...stored.keys, ...keys.map((k) => k.name)]);
  const pools = checkPools(outline.data.pools, { connections: names, keys: keyNames }, problems);
  const plans = checkPlans(outline.data.plans, names, problems);

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { connections, keys, combos, routes, pools, plans } };
}
