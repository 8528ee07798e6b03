import { z } from 'zod';
import type { DiscoveredModel } from '../providers/models-discovery';
import type { DiscoveredModelsRepo } from '../providers/models-discovery-store';
import type { Database } from './open';

/** The models each connection's upstream listed (issue 13 §5), one row per connection. */

interface Row {
  connection_id: string;
  base_url: string;
  models_json: string;
  fetched_at: number | null;
  attempted_at: number;
  last_error: string | null;
}

const modelsSchema = z.array(
  z.object({ id: z.string().min(1), displayName: z.string().nullable(), createdAt: z.number().nullable() }),
);

/** A corrupt list reads as empty: the next refresh writes it again. */
function modelsOf(json: string): DiscoveredModel[] {
  try {
    const parsed = modelsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function createDiscoveredModelsRepo(db: Database): DiscoveredModelsRepo {
  // Rows of removed connections go with them (ON DELETE CASCADE); a row whose connection is gone is never read.
  const selectAll = db.prepare<[], Row>(
    'SELECT d.* FROM discovered_models d JOIN connections c ON c.id = d.connection_id',
  );
  const upsert = db.prepare<[Row]>(`INSERT INTO discovered_models
      (connection_id, base_url, models_json, fetched_at, attempted_at, last_error)
    VALUES (@connection_id, @base_url, @models_json, @fetched_at, @attempted_at, @last_error)
    ON CONFLICT (connection_id) DO UPDATE SET base_url = excluded.base_url, models_json = excluded.models_json,
      fetched_at = excluded.fetched_at, attempted_at = excluded.attempted_at, last_error = excluded.last_error`);
  return {
    loadAll: () =>
      selectAll.all().map((row) => ({
        connectionId: row.connection_id,
        baseUrl: row.base_url,
        models: modelsOf(row.models_json),
        fetchedAt: row.fetched_at,
        attemptedAt: row.attempted_at,
        lastError: row.last_error,
      })),
    save(entry) {
      upsert.run({
        connection_id: entry.connectionId,
        base_url: entry.baseUrl,
        models_json: JSON.stringify(entry.models),
        fetched_at: entry.fetchedAt,
        attempted_at: entry.attemptedAt,
        last_error: entry.lastError,
      });
    },
  };
}
