import type { ComboView } from '../../src-shared/domain/combo';
import type { ApiFormat, WireFormat } from '../../src-shared/domain/connection';
import { SYSTEM_COMBO_PREFIX, type Catalog, type RuntimeConnection, type SystemCombo } from '../kernel/catalog';
import type { Target } from '../kernel/target';
import { matchRoute } from './routes/match-route';
import { wireFit } from '../kernel/wire-fit';

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
      /** Shared by every request the catalog resolved the same way: read, never mutate. */
      excluded: readonly Exclusion[];
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

function usable(connection: RuntimeConnection, wire: WireFormat): Exclusion['reason'] | null {
  // Another format is fine unless the connection refuses translated requests (issue 12 §4).
  if (wireFit(connection, wire) === null) return 'wrong_api_format';
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

function collect(candidates: { connection: RuntimeConnection; model: string | null }[], wire: WireFormat) {
  const targets: Target[] = [];
  const excluded: Exclusion[] = [];
  for (const { connection, model } of candidates) {
    const reason = model === null ? 'no_model' : usable(connection, wire);
    if (reason || model === null) excluded.push({ connection: connection.view.name, reason: reason ?? 'no_model' });
    else targets.push({ connection, upstreamModel: upstreamModelOf(connection, model) });
  }
  return { targets, excluded };
}

function resolveCombo(
  catalog: Catalog,
  comboName: string,
  requested: string | null,
  wire: WireFormat,
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
  const { targets, excluded } = collect(candidates, wire);
  return { kind: 'targets', via: 'combo', targets, excluded: [...missing, ...excluded], combo, system, route: null };
}

/** Exact names: a combo; a model a connection lists (ids may contain "/"); `connection/model`; `combo/model`. */
function resolveExact(catalog: Catalog, model: string, wire: WireFormat, passThrough: string | null): Resolved | null {
  const asCombo = resolveCombo(catalog, model, null, wire, passThrough);
  if (asCombo) return asCombo;

  const listing = nativeFirst(
    catalog.connections.filter((c) => servesExplicitly(c, model)),
    wire,
  );
  if (listing.length > 0)
    return direct(
      'model',
      collect(
        listing.map((connection) => ({ connection, model })),
        wire,
      ),
    );

  // `qtSd/<pool>/<model>`: the system combo's name itself holds a slash.
  if (model.startsWith(SYSTEM_COMBO_PREFIX)) {
    const slash = model.indexOf('/', SYSTEM_COMBO_PREFIX.length);
    const rest = slash > 0 ? model.slice(slash + 1) : '';
    const viaSystem = rest.length > 0 ? resolveCombo(catalog, model.slice(0, slash), rest, wire) : null;
    if (viaSystem) return viaSystem;
  }
  const slash = model.indexOf('/');
  if (slash > 0) {
    const prefix = model.slice(0, slash);
    const rest = model.slice(slash + 1);
    const connection = catalog.byName.get(prefix);
    if (connection && rest.length > 0) return direct('connection', collect([{ connection, model: rest }], wire));
    const comboWithModel = rest.length > 0 ? resolveCombo(catalog, prefix, rest, wire) : null;
    if (comboWithModel) return comboWithModel;
  }
  return null;
}

/**
 * Connections that serve any model. Those of the client's own format only, when there are some: a
 * model name meant for them (`claude-…` on a Claude account) would only be refused by another
 * vendor's any-model key. Without one, any-model connections of the other format serve, translated.
 */
function resolveAnyModel(catalog: Catalog, model: string, wire: WireFormat): Resolved | null {
  const anyModel = catalog.connections.filter((c) => c.view.models.length === 0);
  const native = anyModel.filter((c) => wireFit(c, wire) === 'native');
  const byFormat = native.length > 0 ? native : anyModel.filter((c) => wireFit(c, wire) === 'translated');
  const chosen = withDiscoveredFirst(anyModel, byFormat, model, wire);
  if (chosen.length === 0) return null;
  return direct(
    'model',
    collect(
      chosen.map((connection) => ({ connection, model })),
      wire,
    ),
  );
}

/**
 * Issue 13 §5: any-model connections whose upstream listed this model go first (same format first),
 * even of the other format, so `glm-4.6` from Claude Code reaches the GLM connection that listed it
 * rather than only the Claude account. The format rule's choice follows: discovery adds, never restricts.
 */
function withDiscoveredFirst(
  anyModel: readonly RuntimeConnection[],
  byFormat: RuntimeConnection[],
  model: string,
  wire: WireFormat,
): RuntimeConnection[] {
  let listing: RuntimeConnection[] | null = null;
  for (const c of anyModel) {
    if (c.discoveredIds.size === 0 || !c.discoveredIds.has(model) || wireFit(c, wire) === null) continue;
    (listing ??= []).push(c);
  }
  if (listing === null) return byFormat;
  const first = nativeFirst(listing, wire);
  return [...first, ...byFormat.filter((c) => !first.includes(c))];
}

/** Same-format connections before translated ones, each group in catalog order (stable). */
function nativeFirst(connections: RuntimeConnection[], wire: WireFormat): RuntimeConnection[] {
  if (connections.length < 2) return connections;
  const native = connections.filter((c) => wireFit(c, wire) === 'native');
  return native.length === connections.length
    ? connections
    : [...native, ...connections.filter((c) => !native.includes(c))];
}

/**
 * A route's destination, resolved like a client model (a combo, `connection/model`, a listed
 * model, else any connection that serves any model) but never through another route: no loops.
 */
function resolveRoute(catalog: Catalog, model: string, wire: WireFormat): Resolved | null {
  const match = matchRoute(catalog.routes, model);
  if (match.kind === 'none') return null;
  const to = match.route.to;
  const found = resolveExact(catalog, to, wire, model) ?? resolveAnyModel(catalog, to, wire);
  return found ? { ...found, via: 'route', route: match.route.match } : null;
}

/**
 * Model string → ordered candidates. Order of meaning: exact names (`resolveExact`), then the first
 * matching model route (issue 9 §5), then connections that serve any model.
 */
export function resolveTargets(catalog: Catalog, model: string, wire: WireFormat): Resolution {
  const found = memoFor(catalog, wire, model);
  if (!found) return { kind: 'unknown_model', available: listModels(catalog, wire) };
  // Fresh Target objects per request: the strategy store keys its per-request memory by identity.
  const targets: Target[] = new Array<Target>(found.targets.length);
  for (let i = 0; i < targets.length; i++) {
    const t = found.targets[i];
    // Every field set at once: one object shape for every request's targets.
    if (t) targets[i] = { connection: t.connection, upstreamModel: t.upstreamModel, plan: null, listedAt: -1 };
  }
  const { via, excluded, combo, system, route } = found;
  return { kind: 'targets', via, targets, excluded, combo, system, route };
}

function resolveUncached(catalog: Catalog, model: string, wire: WireFormat): Resolved | null {
  return (
    resolveExact(catalog, model, wire, null) ??
    resolveRoute(catalog, model, wire) ??
    resolveAnyModel(catalog, model, wire)
  );
}

/**
 * A resolution depends only on the catalog, the model string and the wire format, and a catalog
 * is never mutated (a config change builds a new one), so it is decided once per catalog. Model
 * names come from clients: the memo per format is bounded and starts over when full.
 */
const MAX_MEMO_PER_WIRE = 512;
const memos = new WeakMap<Catalog, Map<WireFormat, Map<string, Resolved | null>>>();

// The catalog of the last request (nearly always this one's): skips the WeakMap lookup.
let lastCatalog: Catalog | null = null;
let lastByWire = new Map<WireFormat, Map<string, Resolved | null>>();

function memoFor(catalog: Catalog, wire: WireFormat, model: string): Resolved | null {
  let byWire = catalog === lastCatalog ? lastByWire : memos.get(catalog);
  if (!byWire) memos.set(catalog, (byWire = new Map()));
  lastCatalog = catalog;
  lastByWire = byWire;
  let byModel = byWire.get(wire);
  if (!byModel) byWire.set(wire, (byModel = new Map()));
  const hit = byModel.get(model);
  if (hit !== undefined) return hit;
  const found = resolveUncached(catalog, model, wire);
  if (byModel.size >= MAX_MEMO_PER_WIRE) byModel.clear();
  byModel.set(model, found);
  return found;
}

/** Every name a client of this format can ask for: combos, listed models, aliases (translated ones included). */
export function listModels(catalog: Catalog, wire: WireFormat): string[] {
  const names = new Set<string>();
  for (const combo of catalog.combos.values()) names.add(combo.name);
  // Listed so a client can discover and name them; they are routing names, not editable combos.
  for (const name of catalog.systemCombos.keys()) names.add(name);
  for (const c of catalog.connections) {
    if (!c.view.enabled || wireFit(c, wire) === null) continue;
    for (const m of c.view.models) names.add(m);
    for (const alias of Object.keys(c.view.modelAliases)) names.add(alias);
    // Issue 13 §5: what an any-model connection's upstream listed itself.
    for (const m of c.discovered) names.add(m.id);
  }
  return [...names].sort();
}

/** A connection that would serve the model but refuses this client's format (issue 13 §6). */
export interface FormatRefusal {
  connection: string;
  format: ApiFormat;
}

/**
 * For "no connection serves this model": the connections that do serve it (listing it, an alias,
 * their upstream's list, or any model) but not to this client, because they accept no translated
 * requests. Empty when the model is unknown everywhere.
 */
export function refusingFormat(catalog: Catalog, model: string, wire: WireFormat): FormatRefusal[] {
  const out: FormatRefusal[] = [];
  for (const c of catalog.connections) {
    if (!c.view.enabled || wireFit(c, wire) !== null) continue;
    const serves = c.view.models.length === 0 || servesExplicitly(c, model);
    if (serves) out.push({ connection: c.view.name, format: c.adapter.format });
  }
  return out;
}
