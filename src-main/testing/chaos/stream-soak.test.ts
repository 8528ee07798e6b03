import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../start-leeway';

/*
 * TEST-4 stream soak (opt-in: RUN_STREAM_SOAK=1, SOAK_STREAMS=<n>, default 10 000). Streams through
 * the real proxy to a fake upstream and compares RSS and heap after a warm-up with the same after
 * every stream, each taken after a full GC. Proxy, fake and client share this process, so the
 * numbers are an upper bound for the proxy alone.
 */

const ON = /^(1|true|yes|on)$/i.test(process.env.RUN_STREAM_SOAK ?? '');
const STREAMS = Number.parseInt(process.env.SOAK_STREAMS ?? '', 10) || 10_000;
const WARM_UP = 500;
const CONCURRENCY = 20;
/** A stream of a few frames from a loopback fake takes milliseconds; past this it is hung. */
const REQUEST_DEADLINE_MS = 20_000;
/** Retained heap beyond this after every stream is a leak, not noise (a stream's state is a few KB). */
const MAX_HEAP_GROWTH_BYTES = 24 * 1024 * 1024;

let upstream: FakeUpstream | null = null;
let leeway: RunningLeeway | null = null;
afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await upstream?.close();
  upstream = null;
});

/** A full collection before each sample, so retained memory is measured rather than garbage. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('gc could not be exposed');
  return () => {
    gc();
    gc();
  };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

describe.runIf(ON)('stream soak (skipped unless RUN_STREAM_SOAK=1: 10 000 streams take minutes)', () => {
  it(
    `TEST-4: ${STREAMS} streams through the proxy all end with message_stop and leave heap and RSS flat`,
    { timeout: 900_000 },
    async () => {
      const gc = collector();
      upstream = await startFakeUpstream({ format: 'anthropic', name: 'soak' });
      upstream.setDefault({ kind: 'ok', deltas: 8 });
      leeway = await startLeeway({
        connections: [anthropicConnection('soak', upstream.url, { models: ['m-soak'] })],
      });
      const h = leeway;
      const body = JSON.stringify({
        model: 'm-soak',
        max_tokens: 16,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      });
      const headers = { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' };
      let bad = 0;
      let hung = 0;
      const one = async (): Promise<void> => {
        const signal = AbortSignal.timeout(REQUEST_DEADLINE_MS);
        try {
          const res = await fetch(`${h.url}/v1/messages`, { method: 'POST', headers, body, signal });
          const text = await res.text();
          if (res.status !== 200 || !text.includes('event: message_stop')) bad++;
        } catch {
          if (signal.aborted) hung++;
          else bad++;
        }
      };
      const run = async (count: number): Promise<void> => {
        let next = 0;
        const worker = async () => {
          while (next < count) {
            next++;
            await one();
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      };

      const sample = async (): Promise<NodeJS.MemoryUsage> => {
        // The fake keeps every request it saw; only the proxy's memory is of interest.
        upstream?.requests.splice(0);
        await new Promise((r) => setTimeout(r, 1_100)); // the request log's flush timer
        gc();
        return process.memoryUsage();
      };
      await run(WARM_UP);
      const before = await sample();
      // Quarters show whether growth is a plateau (caches warming) or a slope (a leak).
      const heapSteps: number[] = [];
      const began = Date.now();
      for (let q = 0; q < 4; q++) {
        await run(Math.ceil(STREAMS / 4));
        heapSteps.push(mb((await sample()).heapUsed));
      }
      const ms = Date.now() - began;
      const after = process.memoryUsage();
      console.info(
        `TEST-4 stream soak: ${STREAMS} streams in ${ms} ms, ${bad} bad, ${hung} hung; ` +
          `RSS ${mb(before.rss)} → ${mb(after.rss)} MB, heap used ${mb(before.heapUsed)} → ${heapSteps.join(' → ')} MB, ` +
          `heap total ${mb(before.heapTotal)} → ${mb(after.heapTotal)} MB, external ${mb(before.external)} → ${mb(after.external)} MB, ` +
          `array buffers ${mb(before.arrayBuffers)} → ${mb(after.arrayBuffers)} MB`,
      );
      expect({ bad, hung }).toEqual({ bad: 0, hung: 0 });
      expect(after.heapUsed - before.heapUsed).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
    },
  );
});
