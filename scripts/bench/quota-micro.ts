/**
 * The quota engine's micro-benchmark (issue 10): one fair-share decision for a pool of 50 keys × 4
 * dimensions — the decision inputs built from one `readMany` answer (summing all 50 keys per
 * dimension, as the pre-check does) plus `decideFairShare` — must take < 20 µs (median). Decisions
 * are timed in batches with `process.hrtime.bigint()` so the timer's own cost stays small.
 * `npm run bench` calls `benchFairShare()`; `node --import tsx scripts/bench/quota-micro.ts` prints it.
 */
import { pathToFileURL } from 'node:url';
import type { QuotaDimension } from '../../src-shared/domain/quota';
import { decideFairShare, type FairShareCost, type FairShareDimension } from '../../src-main/quota/engine/fair-share';
import { fairShareDimensionsFor, poolDimensionsOf } from '../../src-main/quota/engine/pool-dimensions';
import type { BucketPairs } from '../../src-main/quota/quota-ports';

const KEYS = 50;
const DIMENSIONS: QuotaDimension[] = [
  { unit: 'requests', window: 'hourly', limit: 1_500 },
  { unit: 'tokens', window: '5h', limit: 50_000_000 },
  { unit: 'usd', window: 'daily', limit: 500 },
  { unit: 'percent', window: 'weekly', limit: 100 },
];
const BATCH = 200;
const WARMUP_BATCHES = 200;
const BATCHES = 1_000;

export interface FairShareBench {
  medianNs: number;
  p99Ns: number;
  iterations: number;
}

/** Deterministic pseudo-random numbers (no Math.random: runs compare like with like). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

export function benchFairShare(): FairShareBench {
  const dims = poolDimensionsOf('bench-pool', DIMENSIONS);
  const rand = lcg(10);
  const size = KEYS * dims.length;
  const pairs: BucketPairs = { prev: new Float64Array(size), curr: new Float64Array(size) };
  for (let k = 0; k < KEYS; k++) {
    dims.forEach((d, i) => {
      // Each key holds a little under 1/50 of each limit, so decisions are a mix, mostly allow.
      pairs.prev[k * dims.length + i] = (rand() * d.limit) / KEYS;
      pairs.curr[k * dims.length + i] = (rand() * d.limit) / KEYS;
    });
  }
  const saturation: (number | null)[] = [null, null, null, 0.3];
  const allocation = { effectiveWeight: 100 / KEYS, policy: 'hard', capValue: null, capUnit: null };
  const cost: FairShareCost = { requests: 1, tokens: 2_000, usd: 0.01 };
  const scratch: FairShareDimension[] = [];
  const base = 1_800_000_000_000;
  let sink = 0;

  const runBatch = (offset: number): void => {
    for (let j = 0; j < BATCH; j++) {
      const n = offset + j;
      const now = base + n * 37;
      const dimensions = fairShareDimensionsFor(dims, pairs, KEYS, n % KEYS, now, saturation, scratch);
      const decision = decideFairShare({ dimensions, allocation, saturationThreshold: 0.5, cost });
      sink += decision.kind === 'allow' ? 1 : 2;
    }
  };

  for (let b = 0; b < WARMUP_BATCHES; b++) runBatch(b * BATCH);
  const perDecision = new Float64Array(BATCHES);
  for (let b = 0; b < BATCHES; b++) {
    const start = process.hrtime.bigint();
    runBatch((WARMUP_BATCHES + b) * BATCH);
    perDecision[b] = Number(process.hrtime.bigint() - start) / BATCH;
  }
  if (sink === 0) throw new Error('unreachable: every decision adds to the sink');
  perDecision.sort();
  const at = (q: number) => perDecision[Math.min(BATCHES - 1, Math.floor(q * BATCHES))] ?? 0;
  return { medianNs: at(0.5), p99Ns: at(0.99), iterations: BATCHES * BATCH };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = benchFairShare();
  const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
  console.log(
    `quota fair-share decision, ${KEYS} keys × ${DIMENSIONS.length} dimensions: median ${us(r.medianNs)}, p99 ${us(r.p99Ns)} over ${r.iterations} decisions (target < 20 µs median)`,
  );
}
