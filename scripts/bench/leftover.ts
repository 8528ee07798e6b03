/**
 * Experiment for issue 9's "streaming-phase mystery": does something a 16-stream SSE phase leaves
 * behind (heap, pools, timers) make the Claude Code-shaped requests after it dearer?
 *
 * `node --import tsx scripts/bench/leftover.ts [--pin=1] [--reps=6] [--cc=200] [--trace-opt] [--entry=path/headless.js]`
 * Floor and Leeway each run, interleaved, the sequence
 *   CC(after CC) → streams c=16 → CC(after streams) → small c=32 → CC(after c=32)
 * `reps` times; per position it prints proxy CPU per CC request (from /proc) and the GC work the
 * proxy logged meanwhile (`--trace-gc`: count, pause ms, heap after), so a leftover shows up as a
 * position that is dearer for Leeway only, and the GC columns say whether the heap is why.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNode, stopAll, type Child } from './children';
import { startFloor } from './floor-proxy';
import { freePort, headlessEntry, timeToAnswer } from './launch';
import { createTarget, runBatch, type Kind, type Target } from './load';
import { cpuMs } from './proc-stats';
import { formatGrid, median } from './report';
import { LOCAL_KEY, MODEL, UPSTREAM_KEY } from './shared';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const PIN = arg('pin') ?? null;
const REPS = Number(arg('reps') ?? 6);
const CC = { concurrency: 4, requests: Number(arg('cc') ?? 200) };

interface Gc {
  /** TurboFan compilations finished and deoptimizations (--trace-opt / --trace-deopt lines). */
  optimized: number;
  deopts: number;
  count: number;
  major: number;
  pauseMs: number;
  heapAfterMb: number;
}

/** Collects --trace-gc lines: "… ms: Scavenge 5.1 (6.2) -> 4.3 (7.2) MB, 0.45 / 0.00 ms …". */
/** Why major GCs ran over the whole experiment (the text V8 prints after the pause). */
const majorReasons = new Map<string, number>();

function gcMeter(): { onLine: (line: string) => void; take: () => Gc } {
  let now: Gc = { optimized: 0, deopts: 0, count: 0, major: 0, pauseMs: 0, heapAfterMb: NaN };
  const pattern =
    /ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact|Mark-Compact \(reduce\))[^,]*-> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \//;
  return {
    onLine: (line) => {
      if (line.includes('[completed compiling') || line.includes('[completed optimizing')) now.optimized += 1;
      if (line.includes('[bailout (kind: deopt')) now.deopts += 1;
      const m = pattern.exec(line);
      if (!m) return;
      now.count += 1;
      if (!m[1]?.startsWith('Scavenge') && !m[1]?.startsWith('Minor')) {
        now.major += 1;
        // "… (average mu = 0.9, current mu = 0.8) finalize incremental marking via task; GC in old space requested"
        const reason = /mu = [\d.]+\) ([^;]+)/.exec(line)?.[1]?.trim() ?? '?';
        majorReasons.set(reason, (majorReasons.get(reason) ?? 0) + 1);
      }
      now.pauseMs += Number(m[3]);
      now.heapAfterMb = Number(m[2]);
    },
    take: () => {
      const out = now;
      now = { optimized: 0, deopts: 0, count: 0, major: 0, pauseMs: 0, heapAfterMb: out.heapAfterMb };
      return out;
    },
  };
}

const taskset = (args: string[]) =>
  PIN ? { command: 'taskset', args: ['-c', PIN, process.execPath, ...args] } : { args };

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'leeway-leftover-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  const override = arg('entry');
  const entry = override
    ? { args: [resolve(override)], how: override }
    : await headlessEntry(root, (l) => console.error(l));
  const upstream = await spawnNode({
    name: 'upstream',
    cwd: root,
    args: ['--import', 'tsx', join(root, 'scripts/bench/upstream-child.ts')],
    ready: /^READY (\S+)/,
  });
  const meters = { leeway: gcMeter() };
  const floorPort = await freePort();
  const floor = await startFloor({ port: floorPort, upstream: upstream.readyValue, cwd: root, pin: PIN });
  const dir = join(work, 'lw');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      connections: [
        { name: 'bench', kind: 'anthropic', baseUrl: upstream.readyValue, apiKey: UPSTREAM_KEY, models: [MODEL] },
      ],
      keys: [{ name: 'bench', key: LOCAL_KEY }],
    }),
  );
  const port = await freePort();
  const leeway: Child = await spawnNode({
    name: 'leeway',
    cwd: root,
    ...taskset([
      '--trace-gc',
      ...entry.args,
      '--port',
      String(port),
      '--data-dir',
      join(dir, 'data'),
      '--config',
      config,
    ]),
    ready: /^Proxy:\s+(http:\/\/\S+)/,
    onLine: meters.leeway.onLine,
  });
  await timeToAnswer(floor, floor.readyValue, false);
  await timeToAnswer(leeway, leeway.readyValue, true);
  const targets: Record<'floor' | 'leeway', Target> = {
    floor: createTarget('floor', floor.readyValue, UPSTREAM_KEY, 32),
    leeway: createTarget('leeway', leeway.readyValue, LOCAL_KEY, 32),
  };
  const pids = { floor: floor.pid, leeway: leeway.pid };

  console.error(
    `leftover: load ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}, pin ${PIN ?? 'none'}, Leeway ${entry.how}`,
  );
  for (const name of ['floor', 'leeway'] as const) {
    await runBatch(targets[name], 'small', 8, 1000);
    await runBatch(targets[name], 'stream', 8, 100);
    await runBatch(targets[name], 'cc', 4, 300);
  }
  const positions = ['cc after cc', 'cc after streams', '2nd cc after streams', 'cc after small c=32'] as const;
  type Pos = (typeof positions)[number];
  const cpu: Record<'floor' | 'leeway', Record<Pos, number[]>> = {
    floor: { 'cc after cc': [], 'cc after streams': [], '2nd cc after streams': [], 'cc after small c=32': [] },
    leeway: { 'cc after cc': [], 'cc after streams': [], '2nd cc after streams': [], 'cc after small c=32': [] },
  };
  const gcs: Record<Pos, Gc[]> = {
    'cc after cc': [],
    'cc after streams': [],
    '2nd cc after streams': [],
    'cc after small c=32': [],
  };
  const streamGcs: Gc[] = [];
  const measureCc = async (name: 'floor' | 'leeway', pos: Pos) => {
    meters.leeway.take();
    const c0 = cpuMs(pids[name]);
    const r = await runBatch(targets[name], 'cc' as Kind, CC.concurrency, CC.requests);
    if (r.errors > 0) throw new Error(`${name}: ${r.errors} errors: ${r.firstError}`);
    cpu[name][pos].push((cpuMs(pids[name]) - c0) / CC.requests);
    if (name === 'leeway') gcs[pos].push(meters.leeway.take());
  };
  for (let rep = 0; rep < REPS; rep++) {
    for (const name of rep % 2 === 0 ? (['floor', 'leeway'] as const) : (['leeway', 'floor'] as const)) {
      await runBatch(targets[name], 'cc', CC.concurrency, 40);
      await measureCc(name, 'cc after cc');
      meters.leeway.take();
      await runBatch(targets[name], 'stream', 16, 200);
      if (name === 'leeway') streamGcs.push(meters.leeway.take());
      await measureCc(name, 'cc after streams');
      await measureCc(name, '2nd cc after streams');
      await runBatch(targets[name], 'small', 32, 2000);
      await measureCc(name, 'cc after small c=32');
    }
    console.error(`leftover: rep ${rep + 1}/${REPS}, load ${loadavg()[0]?.toFixed(2)}`);
  }
  const sum = (xs: Gc[], f: (g: Gc) => number) => xs.reduce((a, g) => a + f(g), 0) / Math.max(1, xs.length);
  console.log(
    formatGrid(
      [
        'position',
        'floor CPU ms/CC req',
        'lw CPU ms/CC req',
        'lw/floor',
        'lw GCs/batch',
        'lw major GCs',
        'lw GC pause ms',
        'lw heap after MB',
        'lw optimized',
        'lw deopts',
      ],
      positions.map((pos) => [
        pos,
        median(cpu.floor[pos]).toFixed(4),
        median(cpu.leeway[pos]).toFixed(4),
        (median(cpu.leeway[pos]) / median(cpu.floor[pos])).toFixed(3),
        sum(gcs[pos], (g) => g.count).toFixed(1),
        sum(gcs[pos], (g) => g.major).toFixed(1),
        sum(gcs[pos], (g) => g.pauseMs).toFixed(1),
        sum(gcs[pos], (g) => g.heapAfterMb).toFixed(1),
        sum(gcs[pos], (g) => g.optimized).toFixed(1),
        sum(gcs[pos], (g) => g.deopts).toFixed(1),
      ]),
    ),
  );
  console.log(
    `lw during the stream batches (per batch): ${sum(streamGcs, (g) => g.optimized).toFixed(1)} optimized, ${sum(streamGcs, (g) => g.deopts).toFixed(1)} deopts, ${sum(streamGcs, (g) => g.count).toFixed(1)} GCs, ${sum(streamGcs, (g) => g.major).toFixed(1)} major, ${sum(streamGcs, (g) => g.pauseMs).toFixed(1)} ms, heap after ${sum(streamGcs, (g) => g.heapAfterMb).toFixed(1)} MB`,
  );
  console.log(
    `per-rep lw CPU: ${positions.map((p) => `${p}: ${cpu.leeway[p].map((v) => v.toFixed(3)).join(' ')}`).join(' | ')}`,
  );
  console.log(
    `per-rep floor CPU: ${positions.map((p) => `${p}: ${cpu.floor[p].map((v) => v.toFixed(3)).join(' ')}`).join(' | ')}`,
  );
  console.log(`major GC reasons: ${[...majorReasons].map(([r, n]) => `${r} ×${n}`).join(', ')}`);
  console.log(
    `load at end ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  await Promise.all(Object.values(targets).map((t) => t.pool.close()));
}

main().then(
  () => stopAll().then(() => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    void stopAll().finally(() => process.exit(1));
  },
);
