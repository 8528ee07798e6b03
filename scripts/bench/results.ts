/** The measured table and the targets (ratios to the floor in the same run, PASS/FAIL). */
import type { Totals } from './history';
import type { Target } from './load';
import { mb, median, percentile, type Check, type Row } from './report';
import { STREAM_DELTAS } from './shared';

export type Name = Target['name'];
export type PhaseId = 'c1' | 'c32' | 'stream' | 'cc' | 'cc-stream';
export type AllTotals = Record<PhaseId, Record<Name, Totals>>;
type ProxyName = 'floor' | 'leeway' | 'engines';

export interface ProxyFacts {
  idleRss: Record<ProxyName, number>;
  peakRss: Record<ProxyName, number>;
  startReady: Record<ProxyName, number[]>;
  startAnswer: Record<ProxyName, number[]>;
}

const ALL: readonly Name[] = ['direct', 'floor', 'leeway', 'engines'];
const PROXIES: readonly ProxyName[] = ['floor', 'leeway', 'engines'];

export function buildRows(t: AllTotals, facts: ProxyFacts, concurrency: Record<PhaseId, number>): Row[] {
  const of = (phase: PhaseId, n: Name) => t[phase][n];
  const value = (f: (n: Name) => number, names: readonly Name[] = ALL): Partial<Record<Name, number>> =>
    Object.fromEntries(names.map((n) => [n, f(n)]));
  const rps = (phase: PhaseId) => (n: Name) => (of(phase, n).totalMs.length * 1000) / of(phase, n).wallMs;
  const cpu = (phase: PhaseId) => (n: Name) => of(phase, n).cpuMs / of(phase, n).requests;
  const c = concurrency;
  const row = (label: string, unit: string, f: (n: Name) => number, digits: number, names = ALL): Row => ({
    label,
    unit,
    ...value(f, names),
    digits,
  });
  return [
    row('p50 latency, small, c=1', 'ms', (n) => median(of('c1', n).totalMs), 3),
    row('p99 latency, small, c=1', 'ms', (n) => percentile(of('c1', n).totalMs, 99), 3),
    row(`p50 latency, small, c=${c.c32}`, 'ms', (n) => median(of('c32', n).totalMs), 3),
    row(`p99 latency, small, c=${c.c32}`, 'ms', (n) => percentile(of('c32', n).totalMs, 99), 3),
    row(`throughput, small, c=${c.c32}`, 'req/s', rps('c32'), 0),
    row(`stream TTFB p50, ${STREAM_DELTAS} ev, c=${c.stream}`, 'ms', (n) => median(of('stream', n).ttfbMs), 3),
    row(`stream TTFB p99, ${STREAM_DELTAS} ev, c=${c.stream}`, 'ms', (n) => percentile(of('stream', n).ttfbMs, 99), 3),
    row(`stream total p50, ${STREAM_DELTAS} ev, c=${c.stream}`, 'ms', (n) => median(of('stream', n).totalMs), 3),
    row(`Claude Code-shaped p50, c=${c.cc}`, 'ms', (n) => median(of('cc', n).totalMs), 3),
    row(`Claude Code-shaped p99, c=${c.cc}`, 'ms', (n) => percentile(of('cc', n).totalMs, 99), 3),
    row(`CC-shaped stream TTFB p50, c=${c['cc-stream']}`, 'ms', (n) => median(of('cc-stream', n).ttfbMs), 3),
    row('proxy CPU per small request, c=1', 'ms', cpu('c1'), 4, PROXIES),
    row(`proxy CPU per small request, c=${c.c32}`, 'ms', cpu('c32'), 4, PROXIES),
    row('proxy CPU per stream', 'ms', cpu('stream'), 4, PROXIES),
    row('proxy CPU per CC-shaped request', 'ms', cpu('cc'), 4, PROXIES),
    row('proxy CPU per CC-shaped stream', 'ms', cpu('cc-stream'), 4, PROXIES),
    row('RSS after start (idle)', 'MB', (n) => mb(facts.idleRss[n as ProxyName]), 1, PROXIES),
    row('peak RSS (VmHWM), after rounds', 'MB', (n) => mb(facts.peakRss[n as ProxyName]), 1, PROXIES),
    row('start: spawn → ready line (median)', 'ms', (n) => median(facts.startReady[n as ProxyName]), 0, PROXIES),
    row('start: spawn → /health answered (median)', 'ms', (n) => median(facts.startAnswer[n as ProxyName]), 0, PROXIES),
  ];
}

/** The targets for one Leeway column against the floor. */
export function buildChecks(rows: readonly Row[], who: 'leeway' | 'engines'): Check[] {
  const byPrefix = (prefix: string) => {
    const found = rows.find((r) => r.label.startsWith(prefix));
    if (!found) throw new Error(`no row "${prefix}"`);
    return found;
  };
  const ratio = (prefix: string) => {
    const r = byPrefix(prefix);
    return (r[who] ?? NaN) / (r.floor ?? NaN);
  };
  const atMost = (label: string, prefix: string, limit: number): Check => {
    const r = ratio(prefix);
    return { label, measured: `${r.toFixed(3)}× floor`, target: `≤ ${limit}×`, pass: r <= limit };
  };
  const atLeast = (label: string, prefix: string, limit: number): Check => {
    const r = ratio(prefix);
    return { label, measured: `${r.toFixed(3)}× floor`, target: `≥ ${limit}×`, pass: r >= limit };
  };
  return [
    atMost('p50 latency at c=1', 'p50 latency, small, c=1', 1.3),
    atMost('CPU per request, small c=32', 'proxy CPU per small request, c=32', 2),
    atLeast('throughput, small c=32', 'throughput, small', 0.6),
    atMost('p99 latency, small c=32', 'p99 latency, small, c=32', 3),
    atMost('CPU per request, Claude Code-shaped', 'proxy CPU per CC-shaped request', 1.5),
    atMost('SSE first token (stream TTFB p50)', 'stream TTFB p50', 1.3),
    atMost('peak RSS', 'peak RSS (VmHWM)', 1.5),
  ];
}
