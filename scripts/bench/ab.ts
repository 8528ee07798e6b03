/**
 * A/B of two Leeway builds on a noisy machine: `node --import tsx scripts/bench/ab.ts A.js B.js
 * [--engines] [--kinds=cc,small] [--rounds=10] [--requests=400] [--c=2] [--a-flags=…] [--b-flags=--flag,…]`. Both run at once
 * against one upstream (c=2 each unless --c), so whatever else loads the machine loads both alike; each round prints B's
 * CPU per request over A's, read from /proc. Run it twice with A and B swapped, and once A/A.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNode, stopAll } from './children';
import { createTarget, runBatch, type BatchResult, type Kind, type Target } from './load';
import { mb, median, percentile } from './report';
import { cpuMs, memory, threadCpuMs } from './proc-stats';
import { launchEngines, launchLeeway, type LaunchSetup } from './proxies';
import { LOCAL_KEY } from './shared';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const entries = argv.filter((a) => !a.startsWith('--'));
const ENGINES = argv.includes('--engines');
const ALL_KINDS: readonly Kind[] = ['small', 'stream', 'cc', 'cc-stream'];
const isKind = (k: string): k is Kind => (ALL_KINDS as readonly string[]).includes(k);
const KINDS = (option('kinds') ?? 'cc,small').split(',').filter(isKind);
const ROUNDS = Number(option('rounds') ?? 10);
const REQUESTS = Number(option('requests') ?? 400);
/** Requests in flight per side (`--c=8`: 16 at once on the machine, as `npm run bench`'s stream phase). */
const CONCURRENCY = Number(option('c') ?? 2);

interface Side {
  pid: number;
  target: Target;
}

async function start(setup: LaunchSetup, entry: string, flags: readonly string[] = []): Promise<Side> {
  const at = { ...setup, entryArgs: [...flags, resolve(entry)] };
  if (!ENGINES) {
    const s = await launchLeeway(at, false);
    return { pid: s.child.pid, target: createTarget('leeway', s.child.readyValue, LOCAL_KEY, 4) };
  }
  const e = await launchEngines(at, false);
  const target = createTarget('engines', e.started.child.readyValue, LOCAL_KEY, 4, {
    model: e.status.model,
    sessions: true,
  });
  return { pid: e.started.child.pid, target };
}

async function main(): Promise<void> {
  const [a, b] = entries;
  if (!a || !b) throw new Error('usage: ab.ts A-headless.js B-headless.js [--engines] [--kinds=cc,small]');
  const work = mkdtempSync(join(tmpdir(), 'leeway-ab-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  const upstream = await spawnNode({
    name: 'upstream',
    cwd: root,
    args: ['--import', 'tsx', join(root, 'scripts/bench/upstream-child.ts')],
    ready: /^READY (\S+)/,
  });
  const setup: LaunchSetup = {
    root,
    work,
    upstreamUrl: upstream.readyValue,
    entryArgs: [],
    profileDir: null,
    pin: null,
  };
  // `--b-flags=--max-semi-space-size=32,…`: node flags for B only (a runtime setting tried against the same build).
  const bFlags = (option('b-flags') ?? '').split(',').filter((f) => f.length > 0);
  const aFlags = (option('a-flags') ?? '').split(',').filter((f) => f.length > 0);
  const sides = { A: await start(setup, a, aFlags), B: await start(setup, b, bFlags) };
  for (const kind of KINDS)
    await Promise.all([sides.A, sides.B].map((s) => runBatch(s.target, kind, CONCURRENCY, 300)));
  // Monotonic µs, the clock of V8's .cpuprofile timestamps: lets a profile be cut to the measured rounds.
  const windowStart = process.hrtime.bigint() / 1000n;
  const threads0 = { A: threadCpuMs(sides.A.pid), B: threadCpuMs(sides.B.pid) };
  for (const kind of KINDS) await measureKind(sides, kind);
  console.log(`window ${windowStart} ${process.hrtime.bigint() / 1000n} (monotonic µs)`);
  printThreads(threads0, { A: threadCpuMs(sides.A.pid), B: threadCpuMs(sides.B.pid) });
  const rssA = memory(sides.A.pid).peakRss;
  const rssB = memory(sides.B.pid).peakRss;
  console.log(`peak RSS   A ${mb(rssA).toFixed(1)} MB, B ${mb(rssB).toFixed(1)} MB; B/A ${(rssB / rssA).toFixed(3)}`);
  await Promise.all([sides.A.target.pool.close(), sides.B.target.pool.close()]);
}

/** Rounds of one kind, both sides at once: CPU per request from /proc, then latency, TTFB and req/s over all rounds. */
async function measureKind(sides: Record<'A' | 'B', Side>, kind: Kind): Promise<void> {
  const requests = kind === 'cc' || kind === 'small' ? REQUESTS : Math.ceil(REQUESTS / 3);
  const ratios: number[] = [];
  const sum = { A: emptyTiming(), B: emptyTiming() };
  for (let round = 0; round < ROUNDS; round++) {
    const a0 = cpuMs(sides.A.pid);
    const b0 = cpuMs(sides.B.pid);
    const [ra, rb] = await Promise.all([
      runBatch(sides.A.target, kind, CONCURRENCY, requests),
      runBatch(sides.B.target, kind, CONCURRENCY, requests),
    ]);
    if (ra.errors + rb.errors > 0) throw new Error(`${kind}: errors A ${ra.firstError} B ${rb.firstError}`);
    const da = cpuMs(sides.A.pid) - a0;
    const db = cpuMs(sides.B.pid) - b0;
    addTiming(sum.A, ra, da);
    addTiming(sum.B, rb, db);
    ratios.push(db / da);
  }
  ratios.sort((x, y) => x - y);
  const n = ROUNDS * requests;
  const { A, B } = sum;
  console.log(
    `${kind.padEnd(10)} CPU/request A ${(A.cpuMs / n).toFixed(4)} ms, B ${(B.cpuMs / n).toFixed(4)} ms; ` +
      `B/A ${(B.cpuMs / A.cpuMs).toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
  );
  const ratio = (f: (t: Timing) => number): string => (f(B) / f(A)).toFixed(3);
  const streamed = kind === 'stream' || kind === 'cc-stream';
  console.log(
    `${''.padEnd(10)} B/A: p50 ${ratio((t) => median(t.totalMs))}, p99 ${ratio((t) => percentile(t.totalMs, 99))}, ` +
      `req/s ${ratio((t) => t.totalMs.length / t.wallMs)}` +
      (streamed ? `, first token p50 ${ratio((t) => median(t.ttfbMs))}` : ''),
  );
}

interface Timing {
  totalMs: number[];
  ttfbMs: number[];
  wallMs: number;
  cpuMs: number;
}

const emptyTiming = (): Timing => ({ totalMs: [], ttfbMs: [], wallMs: 0, cpuMs: 0 });

function addTiming(into: Timing, batch: BatchResult, cpu: number): void {
  for (const t of batch.totalMs) into.totalMs.push(t);
  for (const t of batch.ttfbMs) into.ttfbMs.push(t);
  into.wallMs += batch.wallMs;
  into.cpuMs += cpu;
}

type Threads = Record<'A' | 'B', Map<string, number>>;

/** CPU per thread name over the measured rounds: tells JS on the main thread from GC and compiler helpers. */
function printThreads(before: Threads, after: Threads): void {
  const names = new Set([...after.A.keys(), ...after.B.keys()]);
  for (const name of names) {
    const d = (side: 'A' | 'B'): number => (after[side].get(name) ?? 0) - (before[side].get(name) ?? 0);
    if (d('A') + d('B') > 0)
      console.log(`thread ${name.padEnd(18)} A ${d('A').toFixed(0)} ms, B ${d('B').toFixed(0)} ms`);
  }
}

main().then(
  () => stopAll().then(() => process.exit(0)),
  (error: unknown) => {
    console.error(`ab: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void stopAll().finally(() => process.exit(1));
  },
);
