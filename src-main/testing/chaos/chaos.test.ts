import Anthropic, { APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../start-leeway';
import { startChaosUpstream, type ChaosPhase, type ChaosUpstream } from './chaos-upstream';
import { CHAOS_ACTIONS, HEALED_WEIGHTS } from './chaos-draw';

/*
 * TEST-1 chaos test. Two Anthropic connections on two chaos upstreams (two ports, so two providers
 * with their own breakers) and a healthy plain fake as every combo's last target. A storm of mostly
 * failures must open the breakers while the healthy target keeps serving; after the upstreams heal
 * the breakers must close again through successful probes. Throughout: every request settles before
 * its deadline, nothing rejects unhandled, and after shutdown no socket, server or timer is left.
 *
 * TEST-4 vs the product owner's issue: the short form (~300 requests) runs in the default suite;
 * RUN_CHAOS_INT=1 (`npm run test:chaos`) runs the long form (~3000 requests).
 * CHAOS_SEED=<n> replays a seed (the arrival order under concurrency still varies);
 * CHAOS_REQUESTS=<n> sets the storm's size for a longer soak (the healed phase is a quarter of it).
 */

const LONG = /^(1|true|yes|on)$/i.test(process.env.RUN_CHAOS_INT ?? '');
const SEED = Number.parseInt(process.env.CHAOS_SEED ?? '', 10) || Math.floor(Math.random() * 2 ** 31);
const SIZED = Number.parseInt(process.env.CHAOS_REQUESTS ?? '', 10);
const STORM_REQUESTS = SIZED > 0 ? SIZED : LONG ? 2400 : 220;
const HEALED_REQUESTS = SIZED > 0 ? Math.ceil(SIZED / 4) : LONG ? 600 : 60;
const CONCURRENCY = 30;

/**
 * The proxy's headers timeouts: short so hangs cost little wall time, yet well above the event-loop
 * stalls of a busy shared machine (up to ~1 s seen), which would otherwise time out healthy answers.
 */
const UPSTREAM_TIMEOUT_MS = 2_000;
const RESET_TIMEOUT_MS = 1_000;
const MAX_BACKOFF_MULTIPLIER = 4;
/** Worst honest path: both chaos targets hang until the proxy's timeout, then the healthy one answers; the rest is slack for a busy machine. */
const DEADLINE_MS = 2 * UPSTREAM_TIMEOUT_MS + 12_000;
/** Past this the client gives up by itself and the request counts as hung. */
const HARD_STOP_MS = DEADLINE_MS + 10_000;
/** Breakers must be CLOSED within the longest escalated window plus slack. */
const RECOVERY_WAIT_MS = RESET_TIMEOUT_MS * MAX_BACKOFF_MULTIPLIER + 12_000;

const COMBOS = ['chaos-ab', 'chaos-ba'] as const;
const MODEL = 'claude-sonnet-4-6';

/**
 * `stream_error`: the stream broke after the first byte and ended with an error event;
 * `connection_error`: the connection was cut (a JSON answer broken after its headers);
 * `bad_answer`: a 200 that silently lacks its end (a relay bug); `hung`: never settled.
 */
type OutcomeKind = 'ok' | 'http_error' | 'stream_error' | 'connection_error' | 'bad_answer' | 'hung';

interface Outcome {
  index: number;
  phase: ChaosPhase;
  combo: string;
  stream: boolean;
  kind: OutcomeKind;
  status: number | null;
  connection: string | null;
  failover: string | null;
  elapsedMs: number;
  detail: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const WATCHED_RESOURCES = ['TCPSocketWrap', 'TCPServerWrap', 'Timeout'] as const;

function resourceCounts(): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(WATCHED_RESOURCES.map((r) => [r, 0]));
  for (const r of process.getActiveResourcesInfo()) if (r in counts) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

/** Runs `count` requests with at most `concurrency` in flight; `one` must never throw. */
async function drive(count: number, concurrency: number, one: (i: number) => Promise<Outcome>): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      out.push(await one(i));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}

function tally<T extends string>(items: readonly T[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

let chaos: ChaosUpstream[] = [];
let plain: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;
let stopPolling: (() => void) | null = null;

afterEach(async () => {
  // Stops whatever a test left running (the storm test stops its own, to look for leaks after).
  stopPolling?.();
  stopPolling = null;
  await leeway?.stop();
  leeway = null;
  await Promise.all([...chaos.map((c) => c.close()), ...plain.map((p) => p.close())]);
  chaos = [];
  plain = [];
});

describe('chaos: resilience under a storm of upstream failures', () => {
  it(
    'TEST-1: a 503 whose body then stalls is cut at the attempt timeout and fails over instead of hanging',
    { timeout: 60_000 },
    async () => {
      const stalling = await startChaosUpstream({
        name: 'stall',
        seed: SEED,
        weights: { storm: { ...HEALED_WEIGHTS, ok: 0, slow: 0, stall_error: 1 } },
      });
      chaos = [stalling];
      const healthy = await startFakeUpstream({ format: 'anthropic', name: 'healthy' });
      plain = [healthy];
      leeway = await startLeeway({
        connections: [anthropicConnection('stall', stalling.url), anthropicConnection('healthy', healthy.url)],
        combos: [
          {
            name: 'c',
            targets: [
              { connection: 'stall', model: MODEL },
              { connection: 'healthy', model: MODEL },
            ],
          },
        ],
      });
      const h = leeway;
      expect(
        (
          await h.core.router.call('settings.update', {
            streamHeadersTimeoutMs: UPSTREAM_TIMEOUT_MS,
            responseTimeoutMs: UPSTREAM_TIMEOUT_MS,
          })
        ).ok,
      ).toBe(true);
      for (const stream of [false, true]) {
        const began = Date.now();
        const res = await fetch(`${h.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'c', max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] }),
          signal: AbortSignal.timeout(HARD_STOP_MS),
        });
        const text = await res.text();
        expect(res.status).toBe(200);
        expect(res.headers.get('x-leeway-connection')).toBe('healthy');
        expect(res.headers.get('x-leeway-failover')).toBe('stall=503');
        expect(text).toContain(stream ? 'event: message_stop' : 'Hello from healthy');
        expect(Date.now() - began).toBeLessThan(DEADLINE_MS);
      }
      expect(stalling.actions.storm.stall_error).toBe(2);
    },
  );

  it(
    `TEST-1: the breaker opens and recovers, 503 fails over, nothing hangs, rejects unhandled or leaks (${LONG ? 'long' : 'short'} form)`,
    { timeout: SIZED > 0 ? 1_800_000 : LONG ? 600_000 : 120_000 },
    async () => {
      const startedAt = Date.now();
      // Handles of an earlier test may still be closing; the quietest of a few samples is the baseline.
      const baseline = resourceCounts();
      for (let i = 0; i < 10; i++) {
        await sleep(20);
        const sample = resourceCounts();
        for (const r of WATCHED_RESOURCES) baseline[r] = Math.min(baseline[r] ?? 0, sample[r] ?? 0);
      }
      // Event-loop lag explains slow requests on a busy machine (proxy, fakes and clients share one loop).
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const unhandled: string[] = [];
      const onRejection = (reason: unknown) => void unhandled.push(`unhandledRejection: ${String(reason)}`);
      const onException = (error: unknown) => void unhandled.push(`uncaughtException: ${String(error)}`);
      process.on('unhandledRejection', onRejection);
      process.on('uncaughtException', onException);

      const outcomes: Outcome[] = [];
      const seen = new Map<string, Set<string>>();
      onTestFailed(() => {
        const summary = {
          seed: SEED,
          form: LONG ? 'long' : 'short',
          outcomes: tally(outcomes.map((o) => `${o.phase}:${o.kind}`)),
          servedBy: tally(outcomes.map((o) => `${o.phase}:${o.connection ?? 'none'}`)),
          breakerStates: Object.fromEntries([...seen].map(([k, v]) => [k, [...v]])),
          actions: Object.fromEntries(chaos.map((c) => [c.name, c.actions])),
          slowest: [...outcomes].sort((a, b) => b.elapsedMs - a.elapsedMs).slice(0, 5),
          unhandled,
          leewayLog: leeway?.logs.slice(-20),
        };
        console.error(`TEST-1 chaos failed — replay with CHAOS_SEED=${SEED}\n${JSON.stringify(summary, null, 2)}`);
      });

      try {
        // --- Set-up: two chaos providers and a healthy one, in combos that try either chaos target first.
        chaos = [
          await startChaosUpstream({ name: 'chaos-a', seed: SEED, prelude: 'failures-first' }),
          await startChaosUpstream({ name: 'chaos-b', seed: SEED + 1, prelude: 'failures-first' }),
        ];
        const healthy = await startFakeUpstream({ format: 'anthropic', name: 'healthy' });
        plain = [healthy];
        // A little latency keeps the storm going long enough for several breaker cycles.
        healthy.setDefault({ kind: 'delay', ms: 40 });
        const [a, b] = chaos as [ChaosUpstream, ChaosUpstream];
        const target = (connection: string) => ({ connection, model: MODEL });
        leeway = await startLeeway({
          connections: [
            anthropicConnection('chaos-a', a.url),
            anthropicConnection('chaos-b', b.url),
            anthropicConnection('healthy', healthy.url),
          ],
          combos: [
            { name: 'chaos-ab', targets: [target('chaos-a'), target('chaos-b'), target('healthy')] },
            { name: 'chaos-ba', targets: [target('chaos-b'), target('chaos-a'), target('healthy')] },
          ],
        });
        const h = leeway;
        const timeouts = await h.core.router.call('settings.update', {
          streamHeadersTimeoutMs: UPSTREAM_TIMEOUT_MS,
          responseTimeoutMs: UPSTREAM_TIMEOUT_MS,
        });
        expect(timeouts.ok).toBe(true);
        const breaker = await h.core.router.call('resilience.updateSettings', {
          breaker: {
            local: {
              // Three: what the failures-first prelude guarantees however few draws pass the cooldowns.
              failureThreshold: 3,
              resetTimeoutMs: RESET_TIMEOUT_MS,
              maxBackoffMultiplier: MAX_BACKOFF_MULTIPLIER,
            },
          },
        });
        expect(breaker.ok).toBe(true);

        const snapshot = async (): Promise<CooldownSnapshot> => {
          const listed = await h.core.router.call('cooldowns.list', undefined);
          if (!listed.ok) throw new Error(`cooldowns.list failed: ${listed.error.message}`);
          return listed.value as CooldownSnapshot;
        };
        /** Breaker state per connection name (a provider nobody charged yet has no row: CLOSED). */
        const breakerStates = (snap: CooldownSnapshot): Record<string, string> => {
          const byProvider = new Map(snap.providers.map((p) => [p.provider, p.state]));
          return Object.fromEntries(snap.connections.map((c) => [c.name, byProvider.get(c.provider) ?? 'CLOSED']));
        };
        const remember = (snap: CooldownSnapshot) => {
          for (const [name, state] of Object.entries(breakerStates(snap))) {
            const states = seen.get(name) ?? new Set<string>();
            states.add(state);
            seen.set(name, states);
          }
        };

        const client = new Anthropic({ baseURL: h.url, apiKey: h.key, maxRetries: 0, timeout: HARD_STOP_MS });
        const messages = [{ role: 'user' as const, content: 'hi' }];
        let sent = 0;
        const request = async (phase: ChaosPhase): Promise<Outcome> => {
          const index = sent++;
          // Alternating combos give both chaos providers traffic, so both breakers can be probed closed.
          const combo = COMBOS[index % COMBOS.length] ?? 'chaos-ab';
          const stream = Math.floor(index / 2) % 2 === 0;
          const signal = AbortSignal.timeout(HARD_STOP_MS);
          const began = Date.now();
          const base = { index, phase, combo, stream };
          let connection: string | null = null;
          let failover: string | null = null;
          const settle = (kind: OutcomeKind, status: number | null, detail: string): Outcome => ({
            ...base,
            kind,
            status,
            connection,
            failover,
            elapsedMs: Date.now() - began,
            detail,
          });
          try {
            if (stream) {
              const { data, response } = await client.messages
                .create({ model: combo, max_tokens: 16, messages, stream: true }, { signal })
                .withResponse();
              connection = response.headers.get('x-leeway-connection');
              failover = response.headers.get('x-leeway-failover');
              let text = '';
              let stopped = false;
              for await (const event of data) {
                if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
                if (event.type === 'message_stop') stopped = true;
              }
              if (!stopped || !text.startsWith('Hello from'))
                return settle('bad_answer', response.status, `stream ended without its end: ${text}`);
              return settle('ok', response.status, text);
            }
            const { data, response } = await client.messages
              .create({ model: combo, max_tokens: 16, messages }, { signal })
              .withResponse();
            connection = response.headers.get('x-leeway-connection');
            failover = response.headers.get('x-leeway-failover');
            const first = data.content[0];
            const text = first?.type === 'text' ? first.text : '';
            if (!text.startsWith('Hello from'))
              return settle('bad_answer', response.status, `unexpected body: ${JSON.stringify(data)}`);
            return settle('ok', response.status, text);
          } catch (error) {
            if (signal.aborted || error instanceof APIUserAbortError) return settle('hung', null, String(error));
            if (error instanceof APIError && error.status !== undefined) {
              connection ??= error.headers?.get('x-leeway-connection') ?? null;
              failover ??= error.headers?.get('x-leeway-failover') ?? null;
              return settle('http_error', error.status, error.message);
            }
            // An in-band `error` event (APIError without status) or a cut connection: settled, not served.
            if (error instanceof APIError && connection !== null) return settle('stream_error', null, error.message);
            return settle('connection_error', null, String(error));
          }
        };

        // --- Storm: mostly failures, while a poller watches the breakers.
        let polling = true;
        const poller = (async () => {
          while (polling) {
            try {
              remember(await snapshot());
            } catch {
              return; // Leeway went away (a failed test's clean-up): nothing left to watch.
            }
            await sleep(20);
          }
        })();
        stopPolling = () => void (polling = false);
        const storm = await drive(STORM_REQUESTS, CONCURRENCY, () => request('storm'));
        // Cooldowns shield a failing upstream, so in a short storm few draws reach it (seed 1855608376:
        // 17 in all, its breakers never opened and some actions were never drawn): the storm goes on,
        // as a real outage does, until a breaker opened and every action was drawn, within a bound.
        const anyOpened = () =>
          ['chaos-a', 'chaos-b'].some((n) => [...(seen.get(n) ?? [])].some((s) => s === 'OPEN' || s === 'HALF_OPEN'));
        const allDrawn = () => CHAOS_ACTIONS.every((a) => chaos.some((c) => c.actions.storm[a] > 0));
        for (let more = 0; more < 6 && !(anyOpened() && allDrawn()); more++) {
          storm.push(...(await drive(Math.ceil(STORM_REQUESTS / 4), CONCURRENCY, () => request('storm'))));
          remember(await snapshot());
        }
        outcomes.push(...storm);
        polling = false;
        await poller;
        stopPolling = null;
        const stormSnapshot = await snapshot();
        remember(stormSnapshot);
        const stormEnded = Date.now();

        // --- Heal: every answer is normal again. Keep a trickle of requests (the breaker is lazy:
        // only a request after the reset window probes it) until both chaos breakers read CLOSED.
        for (const c of chaos) c.setPhase('healed');
        let recovered = false;
        let lastStates: Record<string, string> = breakerStates(await snapshot());
        const recoveryDeadline = Date.now() + RECOVERY_WAIT_MS;
        while (Date.now() < recoveryDeadline) {
          outcomes.push(...(await drive(4, 2, () => request('healed'))));
          const snap = await snapshot();
          remember(snap);
          lastStates = breakerStates(snap);
          if (lastStates['chaos-a'] === 'CLOSED' && lastStates['chaos-b'] === 'CLOSED') {
            recovered = true;
            break;
          }
          await sleep(100);
        }
        const recoveredAfterMs = Date.now() - stormEnded;
        // Once closed, the chaos providers serve again as first targets, with no failover.
        const healed = await drive(HEALED_REQUESTS, CONCURRENCY, () => request('healed'));
        outcomes.push(...healed);
        const healedSnapshot = breakerStates(await snapshot());

        // --- Shutdown: Leeway first; its upstream sockets must close without the fakes forcing them.
        lag.disable();
        await h.stop();
        leeway = null;
        const upstreamSocketsClosed = await waitUntil(
          () => [...chaos, ...plain].every((u) => u.sockets.open() === 0),
          3_000,
        );
        const openUpstreamSockets = Object.fromEntries([...chaos, ...plain].map((u) => [u.name, u.sockets.open()]));
        await Promise.all([...chaos.map((c) => c.close()), ...plain.map((p) => p.close())]);
        const actions = Object.fromEntries(chaos.map((c) => [c.name, c.actions]));
        const chaosRequests = chaos.reduce((sum, c) => sum + c.requests, 0);
        chaos = [];
        plain = [];
        const noLeftovers = await waitUntil(() => {
          const now = resourceCounts();
          return WATCHED_RESOURCES.every((r) => (now[r] ?? 0) <= (baseline[r] ?? 0));
        }, 5_000);
        const leftover = resourceCounts();

        // Let any late rejection surface before looking.
        await sleep(50);
        process.off('unhandledRejection', onRejection);
        process.off('uncaughtException', onException);

        const slowest = [...outcomes]
          .sort((x, y) => y.elapsedMs - x.elapsedMs)
          .slice(0, 3)
          .map((o) => `${o.elapsedMs}ms ${o.kind} via ${o.connection ?? '-'} after ${o.failover ?? '-'}`);
        // The numbers: typed errors are an error status or an in-band error event; dropped is a
        // cut connection or an answer that silently lacks its end.
        const kinds = tally(outcomes.map((o) => o.kind));
        const count = (...ks: OutcomeKind[]) => ks.reduce((sum, k) => sum + (kinds[k] ?? 0), 0);
        // Issue 21: an empty reply is a connection that ended without an answer; a wrong success is a
        // 2xx that is no real answer (an error body, an empty or cut-short answer served as success).
        console.info(
          `TEST-1 chaos numbers: requests ${outcomes.length}, answered 2xx ${count('ok')}, typed errors ${count('http_error', 'stream_error')}, ` +
            `hung ${count('hung')}, empty replies ${count('connection_error')}, wrong successes ${count('bad_answer')}`,
        );
        console.info(
          `TEST-1 chaos (${LONG ? 'long' : 'short'}, seed ${SEED}): ${outcomes.length} requests, ${chaosRequests} reached the chaos upstreams; ` +
            `storm ${JSON.stringify(tally(storm.map((o) => o.kind)))}, breakers seen ${JSON.stringify(Object.fromEntries([...seen].map(([k, v]) => [k, [...v]])))}, ` +
            `recovered in ${recoveredAfterMs} ms, slowest ${JSON.stringify(slowest)}, total ${Date.now() - startedAt} ms; event-loop lag p99 ${Math.round(lag.percentile(99) / 1e6)} ms max ${Math.round(lag.max / 1e6)} ms; resources ${JSON.stringify(baseline)} → ${JSON.stringify(leftover)}`,
        );

        // --- Every request settled, none past its deadline.
        expect(
          outcomes.filter((o) => o.kind === 'hung'),
          `seed ${SEED}: requests that never settled`,
        ).toEqual([]);
        expect(
          outcomes.filter((o) => o.kind === 'bad_answer'),
          `seed ${SEED}: wrong successes (a 2xx that is no real answer)`,
        ).toEqual([]);
        expect(
          outcomes.filter((o) => o.kind === 'connection_error'),
          `seed ${SEED}: empty replies (the connection ended without an answer)`,
        ).toEqual([]);
        const late = outcomes.filter((o) => o.elapsedMs > DEADLINE_MS);
        expect(late, `seed ${SEED}: requests slower than ${DEADLINE_MS} ms`).toEqual([]);

        // --- The chaos really happened: every kind of failure reached the proxy during the storm.
        for (const action of CHAOS_ACTIONS) {
          const drawn = (actions['chaos-a']?.storm[action] ?? 0) + (actions['chaos-b']?.storm[action] ?? 0);
          expect(drawn, `seed ${SEED}: storm action ${action} never drawn`).toBeGreaterThan(0);
        }

        // --- Storm: breakers opened, the healthy target kept serving, 503s failed over.
        const opened = ['chaos-a', 'chaos-b'].filter((name) =>
          [...(seen.get(name) ?? [])].some((s) => s === 'OPEN' || s === 'HALF_OPEN'),
        );
        expect(opened.length, `seed ${SEED}: no chaos breaker was seen OPEN/HALF_OPEN`).toBeGreaterThan(0);
        expect([...(seen.get('healthy') ?? ['CLOSED'])], `seed ${SEED}: the healthy provider's breaker moved`).toEqual([
          'CLOSED',
        ]);
        const stormOk = storm.filter((o) => o.kind === 'ok');
        expect(stormOk.length / storm.length, `seed ${SEED}: too few storm requests succeeded`).toBeGreaterThanOrEqual(
          0.7,
        );
        expect(stormOk.filter((o) => o.connection === 'healthy').length).toBeGreaterThan(0);
        // Failures after the first byte are what a client may see; an error status could only be a
        // load-induced timeout of the healthy last target (504), and rarely.
        const stormStatuses = storm.filter((o) => o.kind === 'http_error');
        expect(
          stormStatuses.filter((o) => o.status !== 504),
          `seed ${SEED}: error statuses during the storm`,
        ).toEqual([]);
        expect(stormStatuses.length, `seed ${SEED}: 504s during the storm`).toBeLessThanOrEqual(storm.length * 0.02);
        const failedOverOn503 = stormOk.filter((o) => /chaos-[ab]=503/.test(o.failover ?? ''));
        expect(failedOverOn503.length, `seed ${SEED}: no 503 was failed over`).toBeGreaterThan(0);

        // --- Heal: both breakers closed through probes, then everything succeeds, first targets first.
        expect(recovered, `seed ${SEED}: breakers after ${RECOVERY_WAIT_MS} ms: ${JSON.stringify(lastStates)}`).toBe(
          true,
        );
        expect(healedSnapshot).toMatchObject({ 'chaos-a': 'CLOSED', 'chaos-b': 'CLOSED', healthy: 'CLOSED' });
        expect(
          healed.filter((o) => o.kind !== 'ok'),
          `seed ${SEED}: failures after healing`,
        ).toEqual([]);
        // The recovered providers serve as first targets again (a load-induced timeout may fail one over).
        const servedFirst = healed.filter((o) => o.connection === (o.combo === 'chaos-ab' ? 'chaos-a' : 'chaos-b'));
        expect(
          servedFirst.length / healed.length,
          `seed ${SEED}: healed requests served by the first target`,
        ).toBeGreaterThanOrEqual(0.9);

        // --- Nothing rejected unhandled, nothing left open.
        expect(unhandled, `seed ${SEED}`).toEqual([]);
        expect(
          upstreamSocketsClosed,
          `seed ${SEED}: upstream sockets still open after stop: ${JSON.stringify(openUpstreamSockets)}`,
        ).toBe(true);
        expect(
          noLeftovers,
          `seed ${SEED}: active resources before ${JSON.stringify(baseline)}, after ${JSON.stringify(leftover)}`,
        ).toBe(true);
        expect(stormSnapshot.providers.length).toBeGreaterThan(0);
      } finally {
        lag.disable();
        process.off('unhandledRejection', onRejection);
        process.off('uncaughtException', onException);
      }
    },
  );
});
