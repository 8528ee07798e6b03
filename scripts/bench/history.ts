/**
 * "No slowdown as history grows": many small requests through Leeway in slices, watching whether
 * later slices are slower than early ones. On a noisy machine one slice against another is mostly
 * noise, so every slice is cut into chunks that alternate Leeway with the floor (a drift control
 * that carries no history), and the per-slice Leeway/floor ratio is what is compared.
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
  /** Proxy CPU over the batches (floor and Leeway only). */
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
  /** Requests per slice through Leeway at `concurrency` (these make the history). */
  perSlice: number;
  concurrency: number;
  /** Requests per slice through the floor at `concurrency` (drift control for req/s). */
  control: number;
  /** Requests per slice at c=1 through Leeway and through the floor (latency probe). */
  probe: number;
  /** Each slice alternates Leeway and floor this many times. */
  chunks: number;
}

export interface Slice {
  /** Requests sent through Leeway since the history test began, at the end of the slice. */
  sent: number;
  lwP50: number;
  floorP50: number;
  lwP99: number;
  lwRps: number;
  floorRps: number;
  lwCpuPerReq: number;
  floorCpuPerReq: number;
  /** Median over the slice's chunks of Leeway's p50 (c=1) over the floor's in the adjacent chunk. */
  p50Ratio: number;
  /** Median over the slice's chunks of Leeway's req/s (c=32) over the floor's in the adjacent chunk. */
  rpsRatio: number;
  lwRss: number;
  /** Failed requests in the slice (Leeway and floor); the first failure's message. */
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
    const lwBulk = fresh();
    const floorBulk = fresh();
    const lwProbe = fresh();
    const floorProbe = fresh();
    const p50Ratios: number[] = [];
    const rpsRatios: number[] = [];
    const rate = (r: { totalMs: number[]; wallMs: number }) => r.totalMs.length / r.wallMs;
    // Adjacent chunks see nearly the same machine: comparing chunk by chunk (then taking the median)
    // keeps a burst of outside load from landing on one side of the comparison only.
    for (let k = 0; k < plan.chunks; k++) {
      const hb = await measure('leeway', 'small', plan.concurrency, part(plan.perSlice, k), lwBulk, false);
      const fb = await measure('floor', 'small', plan.concurrency, part(plan.control, k), floorBulk, k === 0);
      const hp = await measure('leeway', 'small', 1, part(plan.probe, k), lwProbe, false);
      const fp = await measure('floor', 'small', 1, part(plan.probe, k), floorProbe, false);
      rpsRatios.push(rate(hb) / rate(fb));
      p50Ratios.push(median(hp.totalMs) / median(fp.totalMs));
    }
    sent += lwBulk.requests + lwProbe.requests;
    slices.push({
      sent,
      lwP50: median(lwProbe.totalMs),
      floorP50: median(floorProbe.totalMs),
      lwP99: percentile(lwProbe.totalMs, 99),
      lwRps: (lwBulk.totalMs.length * 1000) / lwBulk.wallMs,
      floorRps: (floorBulk.totalMs.length * 1000) / floorBulk.wallMs,
      lwCpuPerReq: (lwBulk.cpuMs + lwProbe.cpuMs) / (lwBulk.requests + lwProbe.requests),
      floorCpuPerReq: (floorBulk.cpuMs + floorProbe.cpuMs) / (floorBulk.requests + floorProbe.requests),
      p50Ratio: median(p50Ratios),
      rpsRatio: median(rpsRatios),
      lwRss: rssOf(),
      errors: [lwBulk, floorBulk, lwProbe, floorProbe].reduce((sum, t) => sum + t.errors, 0),
      firstError: [lwBulk, floorBulk, lwProbe, floorProbe].find((t) => t.firstError !== null)?.firstError ?? null,
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
      'lw sent',
      'lw p50 c=1',
      'floor p50 c=1',
      'lw/floor',
      'lw p99 c=1',
      'lw req/s c=32',
      'floor req/s',
      'lw/floor',
      'lw CPU ms/req',
      'floor CPU',
      'lw/floor',
      'lw RSS MB',
      'errors',
    ],
    slices.map((s, i) => [
      String(i + 1),
      String(s.sent),
      s.lwP50.toFixed(3),
      s.floorP50.toFixed(3),
      s.p50Ratio.toFixed(3),
      s.lwP99.toFixed(3),
      s.lwRps.toFixed(0),
      s.floorRps.toFixed(0),
      s.rpsRatio.toFixed(3),
      s.lwCpuPerReq.toFixed(4),
      s.floorCpuPerReq.toFixed(4),
      (s.lwCpuPerReq / s.floorCpuPerReq).toFixed(3),
      mb(s.lwRss).toFixed(1),
      String(s.errors),
    ]),
  );
  const first = slices[0];
  const last = slices[slices.length - 1];
  const lines = [
    `No slowdown as history grows: ${plan.slices} slices, each ${plan.perSlice} requests through Leeway at c=${plan.concurrency} + ${plan.probe} at c=1,`,
    `alternating (${plan.chunks} chunks a slice) with ${plan.control} at c=${plan.concurrency} + ${plan.probe} at c=1 through the floor as a drift control;`,
    `lw/floor columns: median over the slice's chunks of Leeway vs the floor chunk next to it.`,
    grid,
  ];
  const checks: Check[] = [];
  if (!first || !last) return { text: lines.join('\n'), checks };
  const n = Math.min(3, Math.floor(slices.length / 2)) || 1;
  const p50Rel = slices.map((s) => s.p50Ratio);
  const rpsRel = slices.map((s) => s.rpsRatio);
  const cpuRel = slices.map((s) => s.lwCpuPerReq / s.floorCpuPerReq);
  const raw = {
    p50: last.lwP50 / first.lwP50,
    rps: last.lwRps / first.lwRps,
    cpu: last.lwCpuPerReq / first.lwCpuPerReq,
  };
  const endToEnd = (values: number[]) => (values.at(-1) ?? NaN) / (values[0] ?? NaN);
  const vsFloor = { p50: endToEnd(p50Rel), rps: endToEnd(rpsRel), cpu: endToEnd(cpuRel) };
  const robust = {
    p50: endsRatio(p50Rel, n),
    rps: endsRatio(rpsRel, n),
    cpu: endsRatio(cpuRel, n),
  };
  lines.push(
    `last/first slice, Leeway alone:      p50 ${raw.p50.toFixed(3)}×   req/s ${raw.rps.toFixed(3)}×   CPU/req ${raw.cpu.toFixed(3)}×`,
    `last/first slice, Leeway/floor:      p50 ${vsFloor.p50.toFixed(3)}×   req/s ${vsFloor.rps.toFixed(3)}×   CPU/req ${vsFloor.cpu.toFixed(3)}×`,
    `last ${n}/first ${n} slices (medians), Leeway/floor: p50 ${robust.p50.toFixed(3)}×   req/s ${robust.rps.toFixed(3)}×   CPU/req ${robust.cpu.toFixed(3)}×`,
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
      label: `history: p50 c=1, last/first (lw/floor, median of ${n})`,
      measured: `${robust.p50.toFixed(3)}×`,
      target: '≤ 1.10×',
      pass: notWorse(robust.p50, true),
      note: note(raw.p50),
    },
    {
      label: `history: req/s c=32, last/first (lw/floor, median of ${n})`,
      measured: `${robust.rps.toFixed(3)}×`,
      target: '≥ 0.91× (1/1.1)',
      pass: notWorse(robust.rps, false),
      note: note(raw.rps),
    },
    {
      label: `history: CPU/req, last/first (lw/floor, median of ${n})`,
      measured: `${robust.cpu.toFixed(3)}×`,
      target: '≤ 1.10×',
      pass: notWorse(robust.cpu, true),
      note: note(raw.cpu),
    },
  );
  return { text: lines.join('\n'), checks };
}
