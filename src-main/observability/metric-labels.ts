import { priceOf } from '../quota/engine/price-table';
import type { Catalog } from '../kernel/catalog';

/** Label text for "no connection answered" (refused, or every attempt failed) and for a model not named. */
export const NONE = 'none';
/** Label text for a value outside the configured set: keeps the series count bounded. */
export const OTHER = 'other';

/**
 * The model names a label may carry as they are: what the catalog lists (models, aliases, combos with
 * and without `combo/`) and what the upstreams of any-model connections listed (issue 21 §17: Claude
 * Code's ids on such a connection). All bounded by configuration or by the upstreams' own lists.
 */
function configuredModels(catalog: Catalog): Set<string> {
  const names = new Set<string>();
  for (const name of catalog.combos.keys()) names.add(name).add(`combo/${name}`);
  for (const name of catalog.systemCombos.keys()) names.add(name);
  for (const c of catalog.connections) {
    for (const m of c.view.models) names.add(m).add(`${c.view.name}/${m}`);
    for (const alias of Object.keys(c.view.modelAliases)) names.add(alias);
    for (const m of c.discovered) names.add(m.id);
  }
  return names;
}

/**
 * A model no list names: its family in the price table (`claude-sonnet`, `gpt-4o` …; a fixed set, so
 * the series stay bounded whatever clients send), else "other". priceOf memoises its answers.
 */
const familyOf = (model: string): string => priceOf(model)?.family ?? OTHER;

/**
 * Connection and model label values from the catalog, rebuilt only when the catalog object
 * changes (a reload): per request one identity check and two Set lookups.
 */
export function createMetricLabels(catalog: () => Catalog | null) {
  let seen: Catalog | null = null;
  let connections = new Set<string>();
  let models = new Set<string>();
  const fresh = (): void => {
    const current = catalog();
    if (current === seen) return;
    seen = current;
    connections = new Set(current?.connections.map((c) => c.view.name) ?? []);
    models = current ? configuredModels(current) : new Set();
  };
  return {
    refresh: fresh,
    connection: (name: string | null): string => (name === null ? NONE : connections.has(name) ? name : OTHER),
    model: (name: string | null): string => (name === null ? NONE : models.has(name) ? name : familyOf(name)),
  };
}
