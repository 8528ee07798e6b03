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

export const emptyTotals = (): Totals => ({ totalMs: [], ttfbMs: [], wallMs: 0, requests: 0, errors: 0, firstError: null, cpuMs: 0 });

export type Measure = (name: Target['name'], kind: Kind, concurrency: number, requests: number, into: Totals, prewarm: boolean) => Promise<unknown>;

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
  hrRss: number;
  /** Failed requests in the slice (Headroom and floor); the first failure's message. */
  errors: number;
  firstError: string | null;
}

const fresh = emptyTotals;

export async function runHistory(plan: HistoryPlan, measure: Measure, rssOf: () => number, afterSlice: () => void): Promise<Slice[]> {
  const slices: Slice[] = [];
  let sent = 0;
  const part = (n: number, k: number) => Math.floor(n / plan.chunks) + (k < n % plan.chunks ? 1 : 0);
  for (let i = 0; i < plan.slices; i++) {
    const hrBulk = fresh();
    const floorBulk = fresh();
    const hrProbe = fresh();
    const floorProbe = fresh();
    for (let k = 0; k < plan.chunks; k++) {
      await measure('headroom', 'small', plan.concurrency, part(plan.perSlice, k), hrBulk, false);
      await measure('floor', 'small', plan.concurrency, part(plan.control, k), floorBulk, k === 0);
      await measure('headroom', 'small', 1, part(plan.probe, k), hrProbe, false);
      await measure('floor', 'small', 1, part(plan.probe, k), floorProbe, false);
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
    ['slice', 'hr sent', 'hr p50 c=1', 'floor p50 c=1', 'hr/floor', 'hr p99 c=1', 'hr req/s c=32', 'floor req/s', 'hr/floor', 'hr CPU ms/req', 'hr RSS MB', 'errors'],
    slices.map((s, i) => [
      String(i + 1),
      String(s.sent),
      s.hrP50.toFixed(3),
      s.floorP50.toFixed(3),
      (s.hrP50 / s.floorP50).toFixed(3),
      s.hrP99.toFixed(3),
      s.hrRps.toFixed(0),
      s.floorRps.toFixed(0),
      (s.hrRps / s.floorRps).toFixed(3),
      s.hrCpuPerReq.toFixed(4),
      mb(s.hrRss).toFixed(1),
      String(s.errors),
    ]),
  );
  const first = slices[0];
  const last = slices[slices.length - 1];
  const lines = [
    `No slowdown as history grows: ${plan.slices} slices, each ${plan.perSlice} requests through Headroom at c=${plan.concurrency} + ${plan.probe} at c=1,`,
    `alternating (${plan.chunks} chunks a slice) with ${plan.control} at c=${plan.concurrency} + ${plan.probe} at c=1 through the floor as a drift control.`,
    grid,
  ];
  const checks: Check[] = [];
  if (!first || !last) return { text: lines.join('\n'), checks };
  const n = Math.min(3, Math.floor(slices.length / 2)) || 1;
  const p50Rel = slices.map((s) => s.hrP50 / s.floorP50);
  const rpsRel = slices.map((s) => s.hrRps / s.floorRps);
  const raw = {
    p50: last.hrP50 / first.hrP50,
    rps: last.hrRps / first.hrRps,
    cpu: last.hrCpuPerReq / first.hrCpuPerReq,
  };
  const vsFloor = { p50: (p50Rel.at(-1) ?? NaN) / (p50Rel[0] ?? NaN), rps: (rpsRel.at(-1) ?? NaN) / (rpsRel[0] ?? NaN) };
  const robust = {
    p50: endsRatio(p50Rel, n),
    rps: endsRatio(rpsRel, n),
    cpu: endsRatio(slices.map((s) => s.hrCpuPerReq), n),
  };
  lines.push(
    `last/first slice, Headroom alone:      p50 ${raw.p50.toFixed(3)}×   req/s ${raw.rps.toFixed(3)}×   CPU/req ${raw.cpu.toFixed(3)}×`,
    `last/first slice, Headroom/floor:      p50 ${vsFloor.p50.toFixed(3)}×   req/s ${vsFloor.rps.toFixed(3)}×`,
    `last ${n}/first ${n} slices (medians), Headroom/floor: p50 ${robust.p50.toFixed(3)}×   req/s ${robust.rps.toFixed(3)}×;   Headroom CPU/req ${robust.cpu.toFixed(3)}×`,
  );
  const failed = slices.filter((s) => s.errors > 0);
  if (failed.length > 0) {
    checks.push({ label: 'history: no request failed', measured: `${failed.reduce((a, s) => a + s.errors, 0)} errors`, target: '0', pass: false, note: failed[0]?.firstError ?? '' });
  }
  const within = (r: number) => Number.isFinite(r) && Math.abs(r - 1) <= 0.1;
  const note = `(raw last/first: ${'{}'})`;
  checks.push(
    {
      label: `history: p50 c=1, last/first (hr/floor, median of ${n} slices)`,
      measured: `${robust.p50.toFixed(3)}×`,
      target: 'within 10 %',
      pass: within(robust.p50),
      note: note.replace('{}', `${raw.p50.toFixed(3)}×`),
    },
    {
      label: `history: req/s c=32, last/first (hr/floor, median of ${n})`,
      measured: `${robust.rps.toFixed(3)}×`,
      target: 'within 10 %',
      pass: within(robust.rps),
      note: note.replace('{}', `${raw.rps.toFixed(3)}×`),
    },
    {
      label: `history: CPU/request, last/first (median of ${n} slices)`,
      measured: `${robust.cpu.toFixed(3)}×`,
      target: 'within 10 %',
      pass: within(robust.cpu),
      note: note.replace('{}', `${raw.cpu.toFixed(3)}×`),
    },
  );
  return { text: lines.join('\n'), checks };
}
