import type { ApiFormat } from '../../../src-shared/domain/connection';
import type { DiscoveredModel } from '../../providers/models-discovery';
import type { Catalog } from '../../kernel/catalog';

const EPOCH_ISO = '1970-01-01T00:00:00Z';
const MAX_PAGE = 1000;

/** What an upstream's own list said about each id (display name, creation time), first connection wins. */
export function discoveredDetails(catalog: Catalog): ReadonlyMap<string, DiscoveredModel> {
  const out = new Map<string, DiscoveredModel>();
  for (const c of catalog.connections) for (const m of c.discovered) if (!out.has(m.id)) out.set(m.id, m);
  return out;
}

/** Anthropic writes `2025-02-19T00:00:00Z`: whole seconds. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The slice Anthropic's `limit` / `after_id` / `before_id` ask for; no `limit`: everything. */
function pageOf(ids: readonly string[], query: URLSearchParams): { page: readonly string[]; hasMore: boolean } {
  const rawLimit = query.get('limit');
  const parsed = rawLimit === null ? NaN : Number.parseInt(rawLimit, 10);
  // Anthropic pages by 20 when no limit is given; Leeway answers everything then, so a client that
  // does not page still sees every model, and one that does gets proper pages.
  const limit = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 1), MAX_PAGE) : ids.length;
  const before = query.get('before_id');
  if (before !== null) {
    const end = ids.indexOf(before);
    if (end < 0) return { page: [], hasMore: false };
    const start = Math.max(0, end - limit);
    return { page: ids.slice(start, end), hasMore: start > 0 };
  }
  const after = query.get('after_id');
  const start = after === null ? 0 : ids.indexOf(after) + 1;
  if (after !== null && start === 0) return { page: [], hasMore: false };
  return { page: ids.slice(start, start + limit), hasMore: start + limit < ids.length };
}

/**
 * `GET /v1/models` answered locally from the catalog, in the shape the client expects: Anthropic's
 * list (`data` of `{type, id, display_name, created_at}`, `has_more`, `first_id`, `last_id`, paged by
 * `limit` / `after_id` / `before_id`) or OpenAI's (`{object: 'list', data}`).
 */
export function modelsBody(
  format: ApiFormat,
  ids: readonly string[],
  options: { search?: string; details?: ReadonlyMap<string, DiscoveredModel> } = {},
): string {
  const details = options.details ?? new Map<string, DiscoveredModel>();
  if (format === 'anthropic') {
    const { page, hasMore } = pageOf(ids, new URLSearchParams(options.search ?? ''));
    const data = page.map((id) => {
      const known = details.get(id);
      const created = known?.createdAt ?? null;
      return {
        type: 'model',
        id,
        display_name: known?.displayName ?? id,
        created_at: created === null ? EPOCH_ISO : rfc3339(created),
      };
    });
    return JSON.stringify({ data, has_more: hasMore, first_id: page[0] ?? null, last_id: page.at(-1) ?? null });
  }
  return JSON.stringify({
    object: 'list',
    data: ids.map((id) => {
      const created = details.get(id)?.createdAt ?? null;
      return { id, object: 'model', created: created === null ? 0 : Math.floor(created / 1000), owned_by: 'leeway' };
    }),
  });
}
