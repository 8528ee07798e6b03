import { z } from 'zod';
import { HEALTHY, type ConnectionHealth, type TestStatus } from '../resilience/cooldown/connection-health';
import type { Database } from './open';
import { guardedWrite } from './storage-health';

/** Engine fields beyond COOL-2's columns; validated on read so a bad row heals to defaults. */
const extraSchema = z.object({
  lastFailureAt: z.number().nullable().catch(null),
  rejectedStreak: z.number().int().min(0).catch(0),
  lastRejectedAt: z.number().nullable().catch(null),
  expiredRetries: z.number().int().min(0).catch(0),
  lastExpiredAt: z.number().nullable().catch(null),
});

interface HealthRow {
  connection_id: string;
  rate_limited_until: number | null;
  test_status: TestStatus;
  last_error: string | null;
  last_error_type: string | null;
  error_code: string | null;
  backoff_level: number;
  extra_json: string;
}

/** Persists each connection's cooldown fields and terminal state (COOL-2, COOL-10) so they survive restarts. */
export interface ConnectionHealthRepo {
  loadAll(): Map<string, ConnectionHealth>;
  save(connectionId: string, health: ConnectionHealth, now: number): void;
}

function fromRow(row: HealthRow): ConnectionHealth {
  let extra: unknown = {};
  try {
    extra = JSON.parse(row.extra_json);
  } catch {
    // A corrupt extra column only loses streak counters; the COOL-2 columns still stand.
  }
  const parsed = extraSchema.safeParse(extra);
  const e = parsed.success ? parsed.data : extraSchema.parse({});
  return {
    ...HEALTHY,
    testStatus: row.test_status,
    rateLimitedUntil: row.rate_limited_until,
    lastError: row.last_error,
    lastErrorType: row.last_error_type,
    errorCode: row.error_code,
    backoffLevel: row.backoff_level,
    ...e,
  };
}

export function createConnectionHealthRepo(db: Database): ConnectionHealthRepo {
  const selectAll = db.prepare<[], HealthRow>('SELECT * FROM connection_health');
  const upsert = db.prepare(`INSERT INTO connection_health
      (connection_id, rate_limited_until, test_status, last_error, last_error_type, error_code, backoff_level, extra_json, updated_at)
    VALUES (@id, @until, @status, @lastError, @lastErrorType, @errorCode, @backoff, @extra, @now)
    ON CONFLICT(connection_id) DO UPDATE SET rate_limited_until = excluded.rate_limited_until,
      test_status = excluded.test_status, last_error = excluded.last_error, last_error_type = excluded.last_error_type,
      error_code = excluded.error_code, backoff_level = excluded.backoff_level, extra_json = excluded.extra_json,
      updated_at = excluded.updated_at`);
  const exists = db.prepare<[string], { n: number }>('SELECT 1 AS n FROM connections WHERE id = ?');
  return {
    loadAll: () => new Map(selectAll.all().map((row) => [row.connection_id, fromRow(row)])),
    save(id, h, now) {
      // Learned on a request's path: a disk that refuses keeps it in memory and writes it on recovery (issue 21 §16).
      guardedWrite(db, `connection-health:${id}`, () => {
        // A connection removed while its request was in flight has nothing left to mark.
        if (!exists.get(id)) return;
        upsert.run({
          id,
          until: h.rateLimitedUntil,
          status: h.testStatus,
          lastError: h.lastError,
          lastErrorType: h.lastErrorType,
          errorCode: h.errorCode,
          backoff: h.backoffLevel,
          extra: JSON.stringify({
            lastFailureAt: h.lastFailureAt,
            rejectedStreak: h.rejectedStreak,
            lastRejectedAt: h.lastRejectedAt,
            expiredRetries: h.expiredRetries,
            lastExpiredAt: h.lastExpiredAt,
          }),
          now,
        });
      });
    },
  };
}
