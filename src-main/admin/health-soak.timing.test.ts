import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/*
 * TEST-3, the closest honest form here: the seed's k6 soak (`k6 run tests/load/k6-soak.js`) needs a
 * k6 binary, which neither npm nor Debian ship, so this drives sustained load at the same endpoint,
 * GET /api/monitoring/health, with its own closed-loop load generator and checks the same two
 * thresholds: p95 latency and error rate (zero). Short by default so `npm test` can run it in its
 * timing pass; HEALTH_SOAK_MS=600000 makes it a real soak.
 */

const DURATION_MS = Number.parseInt(process.env.HEALTH_SOAK_MS ?? '', 10) || 3_000;
/** Virtual users, each sending its next request as soon as the last one answered (k6's closed model). */
const USERS = 4;
/**
 * The seed gives no number (OQ-24). The answer is an in-memory snapshot served in a few ms; the
 * limit leaves room for a two-core machine shared with other work, and still catches a health
 * check that blocks on storage or the event loop.
 */
const P95_LIMIT_MS = 250;

let upstream: FakeUpstream | null = null;
let leeway: RunningLeeway | null = null;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic', name: 'soak' });
  // Something to report: a few providers and connections in the snapshot, as on a real install.
  leeway = await startLeeway({
    connections: ['a', 'b', 'c'].map((name) => anthropicConnection(name, upstream?.url ?? '', { models: ['m'] })),
  });
});
afterAll(async () => {
  await leeway?.stop();
  await upstream?.close();
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

describe('health endpoint under sustained load (TEST-3)', () => {
  it(
    `TEST-3: ${USERS} users for ${DURATION_MS} ms on GET /api/monitoring/health: no errors and p95 under ${P95_LIMIT_MS} ms`,
    { timeout: DURATION_MS + 30_000 },
    async () => {
      const h = leeway;
      if (!h) throw new Error('Leeway did not start');
      const url = `${h.url}/api/monitoring/health`;
      const headers = { authorization: `Bearer ${h.adminToken}` };
      const latencies: number[] = [];
      const errors: string[] = [];
      const until = performance.now() + DURATION_MS;
      const user = async () => {
        while (performance.now() < until) {
          const started = performance.now();
          try {
            const res = await fetch(url, { headers });
            const body = (await res.json()) as { status?: unknown };
            if (res.status !== 200 || body.status !== 'ok') errors.push(`${res.status} ${JSON.stringify(body)}`);
          } catch (error) {
            errors.push(String(error));
          }
          latencies.push(performance.now() - started);
        }
      };
      await Promise.all(Array.from({ length: USERS }, user));

      latencies.sort((a, b) => a - b);
      const p50 = percentile(latencies, 50);
      const p95 = percentile(latencies, 95);
      console.info(
        `TEST-3 health soak: ${latencies.length} requests in ${DURATION_MS} ms, ${errors.length} errors, ` +
          `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
      );
      // A soak that sent almost nothing proves nothing.
      expect(latencies.length).toBeGreaterThan(100);
      expect(errors.slice(0, 3)).toEqual([]);
      expect(p95).toBeLessThan(P95_LIMIT_MS);
    },
  );
});
