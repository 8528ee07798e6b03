import { z } from 'zod';
import type { HealthRowStore, StoredHealthRow } from '../resilience-stores';
import { HEALTHY, type ConnectionHealth, type TestStatus } from './connection-health';

/** Engine fields beyond COOL-2's columns; validated on read so a bad row heals to defaults. */
const extraSchema = z.object({
  lastFailureAt: z.number().nullable().catch(null),
  rejectedStreak: z.number().int().min(0).catch(0),
  lastRejectedAt: z.number().nullable().catch(null),
  expiredRetries: z.number().int().min(0).catch(0),
  lastExpiredAt: z.number().nullable().catch(null),
});

const TEST_STATUSES: ReadonlySet<string> = new Set<TestStatus>([
  'active',
  'unavailable',
  'banned',
  'expired',
  'credits_exhausted',
  'needs_reauth',
]);
const isTestStatus = (value: string): value is TestStatus => TEST_STATUSES.has(value);

/** Each connection's cooldown fields and terminal state (COOL-2, COOL-10), as the engine keeps them. */
export interface ConnectionHealthRepo {
  loadAll(): Map<string, ConnectionHealth>;
  save(connectionId: string, health: ConnectionHealth, now: number): void;
}

/** A stored row as the engine's state (exported for the team bus, which ships rows between instances). */
export function fromRow(row: StoredHealthRow): ConnectionHealth {
  let extra: unknown = {};
  try {
    extra = JSON.parse(row.extraJson);
  } catch {
    // A corrupt extra column only loses streak counters; the COOL-2 columns still stand.
  }
  const parsed = extraSchema.safeParse(extra);
  const e = parsed.success ? parsed.data : extraSchema.parse({});
  return {
    ...HEALTHY,
    // The column's CHECK constraint holds it to these; anything else reads as healthy.
    testStatus: isTestStatus(row.testStatus) ? row.testStatus : HEALTHY.testStatus,
    rateLimitedUntil: row.rateLimitedUntil,
    lastError: row.lastError,
    lastErrorType: row.lastErrorType,
    errorCode: row.errorCode,
    backoffLevel: row.backoffLevel,
    ...e,
  };
}

function toRow(connectionId: string, h: ConnectionHealth): StoredHealthRow {
  return {
    connectionId,
    rateLimitedUntil: h.rateLimitedUntil,
    testStatus: h.testStatus,
    lastError: h.lastError,
    lastErrorType: h.lastErrorType,
    errorCode: h.errorCode,
    backoffLevel: h.backoffLevel,
    extraJson: JSON.stringify({
      lastFailureAt: h.lastFailureAt,
      rejectedStreak: h.rejectedStreak,
      lastRejectedAt: h.lastRejectedAt,
      expiredRetries: h.expiredRetries,
      lastExpiredAt: h.lastExpiredAt,
    }),
  };
}

export function createHealthRepo(rows: HealthRowStore): ConnectionHealthRepo {
  return {
    loadAll: () => new Map(rows.loadAll().map((row) => [row.connectionId, fromRow(row)])),
    save: (id, health, now) => rows.save(toRow(id, health), now),
  };
}
