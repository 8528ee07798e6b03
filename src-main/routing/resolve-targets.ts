import type { ComboView } from '../../src-shared/domain/combo';
import type { ApiFormat } from '../../src-shared/domain/connection';
import { SYSTEM_COMBO_PREFIX, type Catalog, type RuntimeConnection, type SystemCombo } from './catalog';
import { matchRoute } from './routes/match-route';

/** One candidate upstream for a request: a connection and the model id to send it. */
export interface Target {
  connection: RuntimeConnection;
  upstreamModel: string;
}

/** A candidate dropped before dispatch, with a reason a person can read. */
export interface Exclusion {
  connection: string;
  reason: 'disabled' | 'no_secret' | 'wrong_api_format' | 'unknown_connection' | 'no_model';
}

export type Resolution =
  | {
      kind: 'targets';
      via: 'combo' | 'connection' | 'model' | 'route';
      targets: Target[];
      excluded: Exclusion[];
      /** The combo whose targets these are (directly or through a route): its strategy orders them. */
      combo: ComboView | null;
      /** Set when `combo` is a pool's system combo: the quota-share strategy orders it (ROUTE-10/11). */
      system: SystemCombo | null;
      /** The route that decided, when one did (its glob names the pin scope). */
      route: string | null;
    }
  | { kind: 'unknown_model'; available: string[] };

type Resolved = Extract<Resolution, { kind: 'targets' }>;

function direct(via: 'connection' | 'model', found: { targets: Target[]; excluded: Exclusion[] }): Resolved {
  return { kind: 'targets', via, ...found, combo: null, system: null, route: null };
}

function usable(connection: RuntimeConnection, format: ApiFormat): Exclusion['reason'] | null {
  if (connection.adapter.format !== format) return 'wrong_api_format';
  if (!connection.view.enabled) return 'disabled';
  if (!connection.secret) return 'no_secret';
  return null;
}

/**
 * The id sent upstream: an alias maps the client's name to the connection's own. Own keys only:
 * a client asking for `constructor` or `__proto__` must not reach Object.prototype.
 */
function upstreamModelOf(connection: RuntimeConnection, model: string): string {
  const aliases = connection.view.modelAliases;
  return Object.hasOwn(aliases, model) ? (aliases[model] ?? model) : model;
}

function servesExplicitly(connection: RuntimeConnection, model: string): boolean {
  return connection.view.models.includes(model) || Object.hasOwn(connection.view.modelAliases, model);
}

function collect(candidates: { connection: RuntimeConnection; model: string | null }[], format: ApiFormat) {
  const targets: Target[] = [];
  const excluded: Exclusion[] = [];
  for (const { connection, model } of candidates) {
    const reason = model === null ? 'no_model' : usable(connection, format);
    if (reason || model === null) excluded.push({ connection: connection.view.name, reason: reason ?? 'no_model' });
    else targets.push({ connection, upstreamModel: upstreamModelOf(connection, model) });
  }
  return { targets, excluded };
}

function resolveCombo(
  catalog: Catalog,
  comboName: string,
  requested: string | null,
  format: ApiFormat,
  passThrough: string | null = null,
): Resolved | null {
  const system = catalog.systemCombos.get(comboName) ?? null;
  const combo = system?.view ?? catalog.combos.get(comboName);
  if (!combo) return null;
  // Targets without a pinned model get the model named after "combo/", else the combo's first pinned model.
  const fallback = requested ?? combo.targets.find((t) => t.model !== null)?.model ?? null;
  const candidates: { connection: RuntimeConnection; model: string | null }[] = [];
  const missing: Exclusion[] = [];
  for (const target of combo.targets) {
    const connection = catalog.byName.get(target.connection);
    if (!connection) {
      missing.push({ connection: target.connection, reason: 'unknown_connection' });
      continue;
    }
    // A route's client model passes through only to a connection that serves any model; a pool's
    // system combo carries the client's model to every account of the family (they serve the same).
    const own = system ? (passThrough ?? connection.view.models[0]) : (connection.view.models[0] ?? passThrough);
    candidates.push({ connection, model: target.model ?? fallback ?? own ?? null });
  }
  const { targets, excluded } = collect(candidates, format);
  return { kind: 'targets', via: 'combo', targets, excluded: [...missing, ...excluded], combo, system, route: null };
}

/** Exact names: a combo; a model a connection lists (ids may contain "/"); `connection/model`; `combo/model`. */
function resolveExact(catalog: Catalog, model: string, format: ApiFormat, passThrough: string | null): Resolved | null {
  const asCombo = resolveCombo(catalog, model, null, format, passThrough);
  if (asCombo) return asCombo;

  const listing = catalog.connections.filter((c) => c.adapter.format === format && servesExplicitly(c, model));
  if (listing.length > 0)
    return direct(
      'model',
      collect(
        listing.map((connection) => ({ connection, model })),
        format,
      ),
    );

  // `qtSd/<pool>/<model>`: the system combo's name itself holds a slash.
  if (model.startsWith(SYSTEM_COMBO_PREFIX)) {
    const slash = model.indexOf('/', SYSTEM_COMBO_PREFIX.length);
    const rest = slash > 0 ? model.slice(slash + 1) : '';
    const viaSystem = rest.length > 0 ? resolveCombo(catalog, model.slice(0, slash), rest, format) : null;
    if (viaSystem) return viaSystem;
  }
  const slash = model.indexOf('/');
  if (slash > 0) {
    const prefix = model.slice(0, slash);
    const rest = model.slice(slash + 1);
    const connection = catalog.byName.get(prefix);
    if (connection && rest.length > 0) return direct('connection', collect([{ connection, model: rest }], format));
    const comboWithModel = rest.length > 0 ? resolveCombo(catalog, prefix, rest, format) : null;
    if (comboWithModel) return comboWithModel;
  }
  return null;
}

function resolveAnyModel(catalog: Catalog, model: string, format: ApiFormat): Resolved | null {
  const anyModel = catalog.connections.filter((c) => c.adapter.format === format && c.view.models.length === 0);
  if (anyModel.length === 0) return null;
  return direct(
    'model',
    collect(
      anyModel.map((connection) => ({ connection, model })),
      format,
    ),
  );
}

/**
 * A route's destination, resolved like a client model (a combo, `connection/model`, a listed
 * model, else any connection that serves any model) but never through another route: no loops.
 */
function resolveRoute(catalog: Catalog, model: string, format: ApiFormat): Resolved | null {
  const match = matchRoute(catalog.routes, model);
  if (match.kind === 'none') return null;
  const to = match.route.to;
  const found = resolveExact(catalog, to, format, model) ?? resolveAnyModel(catalog, to, format);
  return found ? { ...found, via: 'route', route: match.route.match } : null;
}

/**
 * Model string → ordered candidates. Order of meaning: exact names (`resolveExact`), then the first
 * matching model route (issue 9 §5), then connections that serve any model.
 */
export function resolveTargets(catalog: Catalog, model: string, format: ApiFormat): Resolution {
  const found =
    resolveExact(catalog, model, format, null) ??
    resolveRoute(catalog, model, format) ??
    resolveAnyModel(catalog, model, format);
  return found ?? { kind: 'unknown_model', available: listModels(catalog, format) };
}

/** Every name a client of this format can ask for: combos, listed models, aliases. */
export function listModels(catalog: Catalog, format: ApiFormat): string[] {
  const names = new Set<string>();
  for (const combo of catalog.combos.values()) names.add(combo.name);
  // Listed so a client can discover and name them; they are routing names, not editable combos.
  for (const name of catalog.systemCombos.keys()) names.add(name);
  for (const c of catalog.connections) {
    if (c.adapter.format !== format || !c.view.enabled) continue;
    for (const m of c.view.models) names.add(m);
    for (const alias of Object.keys(c.view.modelAliases)) names.add(alias);
  }
  return [...names].sort();
}
