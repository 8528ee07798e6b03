import type { ApiFormat } from '../../src-shared/domain/connection';

/** `GET /v1/models` answered locally from the catalog, in the shape the client expects. */
export function modelsBody(format: ApiFormat, ids: readonly string[]): string {
  if (format === 'anthropic') {
    const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' }));
    return JSON.stringify({ data, has_more: false, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null });
  }
  return JSON.stringify({
    object: 'list',
    data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'headroom' })),
  });
}
