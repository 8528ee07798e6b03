/**
 * "No slowdown as history grows": many small requests through Headroom in slices, watching whether
 * later slices are slower than early ones. On a noisy machine one slice against another is mostly
 * noise, so every slice is cut into chunks that alternate Headroom with the floor (a drift control
 * that carries no history), and the per-slice Headroom/floor ratio is what is compared.
 */
import { median, percentile, formatGrid, mb, type Check } from './report';
import type { Kind, Target } from './load';

/** What a measured batch adds to: latencies, wall time, requests, errors and the proxy's CPU. */
export interface Totals {
  totalMs: number[];
  ttfbMs: number[];
  wallMs: number;
  requests: number;
  errors: number;
  firstError: string | null;
  /** Proxy CPU over the batches (floor and Headroom only). */
  cpuMs: number;
}

export const emptyTotals = (): Totals => ({
  totalMs: [],
  ttfbMs: [],
  wallMs: 0,
  requests: 0,
  errors: 0,
  firstError: null,
  cpuMs: 0,
});

export type Measure = (
  name: Target['name'],
  kind: Kind,
  concurrency: number,
  requests: number,
  into: Totals,
  prewarm: boolean,
) => Promise<{ totalMs: number[]; wallMs: number }>;

export interface HistoryPlan {
  slices: number;
  /** Requests per slice through Headroom at `concurrency` (these make the history). */
  perSlice: number;
  concurrency: number;
  /** Requests per slice through the floor at `concurrency` (drift control for req/s). */
  control: number;
  /** Requests per slice at c=1 through Headroom and through the floor (latency probe). */
  probe: number;
  /** Each slice alternates Headroom and floor this many times. */
  chunks: number;
}

export interface Slice {
  /** Requests sent through Headroom since the history test began, at the end of the slice. */
  sent: number;
  hrP50: number;
  floorP50: number;
  hrP99: number;
  hrRps: number;
  floorRps: number;
  hrCpuPerReq: number;
  floorCpuPerReq: number;
  /** Median over the slice's chunks of Headroom's p50 (c=1) over the floor's in the adjacent chunk. */
  p50Ratio: number;
  /** Median over the slice's chunks of Headroom's req/s (c=32) over the floor's in the adjacent chunk. */
  rpsRatio: number;
  hrRss: number;
  /** Failed requests in the slice (Headroom and floor); the first failure's message. */
  errors: number;
  firstError: string | null;
}

const fresh = emptyTotals;

export async function runHistory(
  plan: HistoryPlan,
  measure: Measure,
  rssOf: () => number,
  afterSlice: () => void,
): Promise<Slice[]> {
  const slices: Slice[] = [];
  let sent = 0;
  const part = (n: number, k: number) => Math.floor(n / plan.chunks) + (k < n % plan.chunks ? 1 : 0);
  for (let i = 0; i < plan.slices; i++) {
    const hrBulk = fresh();
    const floorBulk = fresh();
    const hrProbe = fresh();
    const floorProbe = fresh();
    const p50Ratios: number[] = [];
    const rpsRatios: number[] = [];
    const rate = (r: { totalMs: number[]; wallMs: number }) => r.totalMs.length / r.wallMs;
    // Adjacent chunks see nearly the same machine: comparing chunk by chunk (then taking the median)
    // keeps a burst of outside load from landing on one side of the comparison only.
    for (let k = 0; k < plan.chunks; k++) {
      const hb = await measure('headroom', 'small', plan.concurrency, part(plan.perSlice, k), hrBulk, false);
      const fb = await measure('floor', 'small', plan.concurrency, part(plan.control, k), floorBulk, k === 0);
      const hp = await measure('headroom', 'small', 1, part(plan.probe, k), hrProbe, false);
      const fp = await measure('floor', 'small', 1, part(plan.probe, k), floorProbe, false);
      rpsRatios.push(rate(hb) / rate(fb));
      p50Ratios.push(median(hp.totalMs) / median(fp.totalMs));
    }
    sent += hrBulk.requests + hrProbe.requests;
    slices.push({
      sent,
      hrP50: median(hrProbe.totalMs),
      floorP50: median(floorProbe.totalMs),
      hrP99: percentile(hrProbe.totalMs, 99),
      hrRps: (hrBulk.totalMs.length * 1000) / hrBulk.wallMs,
      floorRps: (floorBulk.totalMs.length * 1000) / floorBulk.wallMs,
      hrCpuPerReq: (hrBulk.cpuMs + hrProbe.cpuMs) / (hrBulk.requests + hrProbe.requests),
      floorCpuPerReq: (floorBulk.cpuMs + floorProbe.cpuMs) / (floorBulk.requests + floorProbe.requests),
      p50Ratio: median(p50Ratios),
      rpsRatio: median(rpsRatios),
      hrRss: rssOf(),
      errors: [hrBulk, floorBulk, hrProbe, floorProbe].reduce((sum, t) => sum + t.errors, 0),
      firstError: [hrBulk, floorBulk, hrProbe, floorProbe].find((t) => t.firstError !== null)?.firstError ?? null,
    });
    afterSlice();
  }
  return slices;
}

/** Median of the last `n` values over the median of the first `n`. */
function endsRatio(values: number[], n: number): number {
  return median(values.slice(-n)) / median(values.slice(0, n));
}

export function historyReport(plan: HistoryPlan, slices: Slice[]): { text: string; checks: Check[] } {
  const grid = formatGrid(
    [
      'slice',
      'hr sent',
      'hr p50 c=1',
      'floor p50 c=1',
      'hr/floor',
      'hr p99 c=1',
      'hr req/s c=32',
      'floor req/s',
      'hr/floor',
      'hr CPU ms/req',
      'floor CPU',
      'hr/floor',
      'hr RSS MB',
      'errors',
    ],
    slices.map((s, i) => [
      String(i + 1),
      String(s.sent),
      s.hrP50.toFixed(3),
      s.floorP50.toFixed(3),
      s.p50Ratio.toFixed(3),
      s.hrP99.toFixed(3),
      s.hrRps.toFixed(0),
      s.floorRps.toFixed(0),
      s.rpsRatio.toFixed(3),
      s.hrCpuPerReq.toFixed(4),
      s.floorCpuPerReq.toFixed(4),
      (s.hrCpuPerReq / s.floorCpuPerReq).toFixed(3),
      mb(s.hrRss).toFixed(1),
      String(s.errors),
    ]),
  );
  const first = slices[0];
  const last = slices[slices.length - 1];
  const lines = [
    `No slowdown as history grows: ${plan.slices} slices, each ${plan.perSlice} requests through Headroom at c=${plan.concurrency} + ${plan.probe} at c=1,`,
    `alternating (${plan.chunks} chunks a slice) with ${plan.control} at c=${plan.concurrency} + ${plan.probe} at c=1 through the floor as a drift control;`,
    `hr/floor columns: median over the slice's chunks of Headroom vs the floor chunk next to it.`,
    grid,
  ];
  const checks: Check[] = [];
  if (!first || !last) return { text: lines.join('\n'), checks };
  const n = Math.min(3, Math.floor(slices.length / 2)) || 1;
  const p50Rel = slices.map((s) => s.p50Ratio);
  const rpsRel = slices.map((s) => s.rpsRatio);
  const cpuRel = slices.map((s) => s.hrCpuPerReq / s.floorCpuPerReq);
  const raw = {
    p50: last.hrP50 / first.hrP50,
    rps: last.hrRps / first.hrRps,
    cpu: last.hrCpuPerReq / first.hrCpuPerReq,
  };
  const endToEnd = (values: number[]) => (values.at(-1) ?? NaN) / (values[0] ?? NaN);
  const vsFloor = { p50: endToEnd(p50Rel), rps: endToEnd(rpsRel), cpu: endToEnd(cpuRel) };
  const robust = {
    p50: endsRatio(p50Rel, n),
    rps: endsRatio(rpsRel, n),
    cpu: endsRatio(cpuRel, n),
  };
  lines.push(
    `last/first slice, Headroom alone:      p50 ${raw.p50.toFixed(3)}×   req/s ${raw.rps.toFixed(3)}×   CPU/req ${raw.cpu.toFixed(3)}×`,
    `last/first slice, Headroom/floor:      p50 ${vsFloor.p50.toFixed(3)}×   req/s ${vsFloor.rps.toFixed(3)}×   CPU/req ${vsFloor.cpu.toFixed(3)}×`,
    `last ${n}/first ${n} slices (medians), Headroom/floor: p50 ${robust.p50.toFixed(3)}×   req/s ${robust.rps.toFixed(3)}×   CPU/req ${robust.cpu.toFixed(3)}×`,
  );
  const failed = slices.filter((s) => s.errors > 0);
  if (failed.length > 0) {
    checks.push({
      label: 'history: no request failed',
      measured: `${failed.reduce((a, s) => a + s.errors, 0)} errors`,
      target: '0',
      pass: false,
      note: failed[0]?.firstError ?? '',
    });
  }
  // One-sided: a later slice may not be more than 10 % worse; being faster is not a slowdown
  // (a large gain only says how noisy the machine was, so the note shows the raw ratio too).
  const notWorse = (r: number, higherIsWorse: boolean) =>
    Number.isFinite(r) && (higherIsWorse ? r <= 1.1 : r >= 1 / 1.1);
  const note = (r: number) => `(raw last/first: ${r.toFixed(3)}×)`;
  checks.push(
    {
      label: `history: p50 c=1, last/first (hr/floor, median of ${n})`,
      measured: `${robust.p50.toFixed(3)}×`,
      target: '≤ 1.10×',
      pass: notWorse(robust.p50, true),
      note: note(raw.p50),
    },
    {
      label: `history: req/s c=32, last/first (hr/floor, median of ${n})`,
      measured: `${robust.rps.toFixed(3)}×`,
      target: '≥ 0.91× (1/1.1)',
      pass: notWorse(robust.rps, false),
      note: note(raw.rps),
    },
    {
      label: `history: CPU/req, last/first (hr/floor, median of ${n})`,
      measured: `${robust.cpu.toFixed(3)}×`,
      target: '≤ 1.10×',
      pass: notWorse(robust.cpu, true),
      note: note(raw.cpu),
    },
  );
  return { text: lines.join('\n'), checks };
}
