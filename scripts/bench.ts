/**
 * `npm run bench`: how much a request pays for going through Headroom, measured against a direct
 * call to the upstream and against the FLOOR (a minimal node:http + undici pass-through proxy).
 *
 * Four processes: this one (the load generator only), the fake upstream, the floor and Headroom,
 * each a child so its CPU and peak RSS can be read from /proc and so the upstream's work does not
 * share the load generator's event loop (which would add its handler time to every latency sample).
 * Direct / floor / Headroom are measured in INTERLEAVED rounds (the order rotating each round), so
 * machine noise and drift fall on all three alike; every number is also printed as a ratio to the
 * others measured in the same run. It is a measurement: the exit code is 0 unless something crashed.
 *
 * Env: BENCH_SCALE (default 1; 0.2 = quick run), BENCH_PROFILE=1 (run floor and Headroom under
 * --cpu-prof and print where their time went; the numbers then include the profiler's overhead),
 * BENCH_HEADROOM_ENTRY=path (bench another headless entry, e.g. a patched copy of out/ under .bench/).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { interrupted, spawnNode, stopAll } from './bench/children';
import { startFloor } from './bench/floor-proxy';
import { freePort, headlessEntry, timeToAnswer, type Started } from './bench/launch';
import { emptyTotals, historyReport, runHistory, type HistoryPlan, type Totals } from './bench/history';
import { createTarget, runBatch, type BatchResult, type Kind, type Target } from './bench/load';
import { clockTicks, cpuMs, memory, procAvailable } from './bench/proc-stats';
import { summarizeProfile } from './bench/profile-summary';
import { formatChecks, formatTable, mb, median, percentile, type Check, type Row } from './bench/report';
import { LOCAL_KEY, MODEL, STREAM_DELTAS, UPSTREAM_KEY } from './bench/shared';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCALE = (() => {
  const value = Number(process.env.BENCH_SCALE ?? '1');
  return Number.isFinite(value) && value > 0 ? value : 1;
})();
const PROFILE = process.env.BENCH_PROFILE === '1';
const scaled = (n: number, min: number) => Math.max(min, Math.round(n * SCALE));

/** Sizes at BENCH_SCALE=1, chosen to keep the whole run near 2–3 minutes on 2 busy cores. */
const PLAN = {
  rounds: SCALE < 0.5 ? 3 : 12,
  c1: { concurrency: 1, requests: scaled(300, 60) },
  c32: { concurrency: 32, requests: scaled(2000, 400) },
  stream: { concurrency: 16, requests: scaled(200, 48) },
  warmup: { small: scaled(1500, 300), stream: scaled(150, 32) },
  history: {
    slices: 10,
    perSlice: scaled(6000, 400),
    concurrency: 32,
    control: scaled(3000, 200),
    probe: scaled(400, 64),
    chunks: 8,
  } satisfies HistoryPlan,
  /** Cold starts per proxy (fresh data dir each); the median is reported. */
  starts: 3,
};

type Name = Target['name'];
const NAMES: readonly Name[] = ['direct', 'floor', 'headroom'];

type PhaseTotals = Totals;

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

async function main(): Promise<void> {
  const began = performance.now();
  if (!procAvailable()) log('WARNING: /proc is not readable; CPU and RSS columns will be empty');
  const entry = await headlessEntry(root, log);
  const work = mkdtempSync(join(tmpdir(), 'headroom-bench-'));
  const profileDir = join(root, '.bench', `profiles-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  if (PROFILE) mkdirSync(profileDir, { recursive: true });
  const cleanup = () => rmSync(work, { recursive: true, force: true });
  process.on('exit', cleanup);

  log(`scale ${SCALE}, ${PLAN.rounds} interleaved rounds; Headroom from ${entry.how}`);

  // --- upstream (its own process: its CPU must not run inside the load generator's event loop)
  const upstream = await spawnNode({
    name: 'upstream',
    cwd: root,
    args: ['--import', 'tsx', join(root, 'scripts/bench/upstream-child.ts')],
    ready: /^READY (\S+)/,
  });
  const upstreamUrl = upstream.readyValue;

  const configFor = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        connections: [
          { name: 'bench', kind: 'anthropic', baseUrl: upstreamUrl, apiKey: UPSTREAM_KEY, models: [MODEL] },
        ],
        keys: [{ name: 'bench', key: LOCAL_KEY }],
      }),
    );
    return file;
  };

  let startSeq = 0;
  const launchHeadroom = async (profile: boolean): Promise<Started> => {
    const dir = join(work, `headroom-${startSeq++}`);
    const config = configFor(dir);
    const port = await freePort();
    const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=headroom.cpuprofile'] : [];
    const child = await spawnNode({
      name: 'headroom',
      cwd: root,
      args: [...flags, ...entry.args, '--port', String(port), '--data-dir', join(dir, 'data'), '--config', config],
      ready: /^Proxy:\s+(http:\/\/\S+)/,
    });
    return { child, answerMs: await timeToAnswer(child, child.readyValue, true) };
  };
  const launchFloor = async (profile: boolean): Promise<Started> => {
    const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=floor.cpuprofile'] : [];
    const child = await startFloor({ port: await freePort(), upstream: upstreamUrl, cwd: root, nodeFlags: flags });
    return { child, answerMs: await timeToAnswer(child, child.readyValue, false) };
  };

  // --- start times: throw-away cold starts first (alternating), the kept instances last
  const startSamples = {
    floor: { ready: [] as number[], answer: [] as number[] },
    headroom: { ready: [] as number[], answer: [] as number[] },
  };
  const noteStart = (name: 'floor' | 'headroom', s: Started) => {
    startSamples[name].ready.push(s.child.startMs);
    startSamples[name].answer.push(s.answerMs);
  };
  for (let i = 0; i < PLAN.starts - 1; i++) {
    const f = await launchFloor(false);
    noteStart('floor', f);
    await f.child.stop();
    const h = await launchHeadroom(false);
    noteStart('headroom', h);
    await h.child.stop();
  }
  const floor = await launchFloor(PROFILE);
  noteStart('floor', floor);
  const headroom = await launchHeadroom(PROFILE);
  noteStart('headroom', headroom);
  const idleRss = { floor: memory(floor.child.pid).rss, headroom: memory(headroom.child.pid).rss };
  const pids: Record<Name, number | null> = { direct: null, floor: floor.child.pid, headroom: headroom.child.pid };

  const maxConcurrency = Math.max(PLAN.c1.concurrency, PLAN.c32.concurrency, PLAN.stream.concurrency);
  const targets: Record<Name, Target> = {
    direct: createTarget('direct', upstreamUrl, UPSTREAM_KEY, maxConcurrency),
    floor: createTarget('floor', floor.child.readyValue, UPSTREAM_KEY, maxConcurrency),
    headroom: createTarget('headroom', headroom.child.readyValue, LOCAL_KEY, maxConcurrency),
  };

  const crashed = (): string | null => {
    const gone = [upstream, floor.child, headroom.child].find((c) => !c.running());
    return gone ? `${gone.name} (pid ${gone.pid}) exited during the run:\n${gone.output()}` : null;
  };

  /** Every request each target was sent (warm-up included), to put profiles per request. */
  const sent: Record<Name, number> = { direct: 0, floor: 0, headroom: 0 };
  /** A batch whose proxy CPU is read around it. */
  const measured = async (
    name: Name,
    kind: Kind,
    concurrency: number,
    requests: number,
    into: PhaseTotals,
    prewarm = true,
  ) => {
    // Unrecorded: re-opens any socket a keep-alive timeout closed while the other targets ran.
    if (prewarm) {
      await runBatch(targets[name], kind, concurrency, concurrency);
      sent[name] += concurrency;
    }
    sent[name] += requests;
    const pid = pids[name];
    const cpu0 = pid === null ? 0 : cpuMs(pid);
    const result: BatchResult = await runBatch(targets[name], kind, concurrency, requests);
    const cpu1 = pid === null ? 0 : cpuMs(pid);
    for (const v of result.totalMs) into.totalMs.push(v);
    for (const v of result.ttfbMs) into.ttfbMs.push(v);
    into.wallMs += result.wallMs;
    into.requests += result.totalMs.length + result.errors;
    into.errors += result.errors;
    into.firstError ??= result.firstError;
    into.cpuMs += cpu1 - cpu0;
    return result;
  };

  // --- warm-up (JIT, sockets), not recorded
  log('warming up');
  for (const name of NAMES) {
    const sink = emptyTotals();
    await measured(name, 'small', 8, PLAN.warmup.small, sink);
    await measured(name, 'stream', 8, PLAN.warmup.stream, sink);
    if (sink.errors > 0) throw new Error(`${name}: ${sink.errors} errors during warm-up, first: ${sink.firstError}`);
  }

  // --- interleaved rounds
  const phases = [
    { id: 'c1', kind: 'small' as const, ...PLAN.c1 },
    { id: 'c32', kind: 'small' as const, ...PLAN.c32 },
    { id: 'stream', kind: 'stream' as const, ...PLAN.stream },
  ];
  const totals: Record<string, Record<Name, PhaseTotals>> = {};
  for (const phase of phases)
    totals[phase.id] = { direct: emptyTotals(), floor: emptyTotals(), headroom: emptyTotals() };
  for (let round = 0; round < PLAN.rounds; round++) {
    const order = NAMES.map((_, i) => NAMES[(i + round) % NAMES.length] as Name);
    log(`round ${round + 1}/${PLAN.rounds} (${order.join(' → ')})`);
    for (const phase of phases) {
      for (const name of order) {
        const into = totals[phase.id]![name];
        await measured(name, phase.kind, phase.concurrency, phase.requests, into);
      }
    }
    const gone = crashed();
    if (gone) throw new Error(gone);
  }
  const peak = { floor: memory(floor.child.pid).peakRss, headroom: memory(headroom.child.pid).peakRss };

  // --- history: slices through Headroom, alternating with the floor as a drift control
  log(
    `history: ${PLAN.history.slices} slices × ${PLAN.history.perSlice + PLAN.history.probe} requests through Headroom`,
  );
  const slices = await runHistory(
    PLAN.history,
    measured,
    () => memory(headroom.child.pid).rss,
    () => {
      const gone = crashed();
      if (gone) throw new Error(gone);
    },
  );
  const peakAfterHistory = memory(headroom.child.pid).peakRss;
  const upstreamCpuMs = cpuMs(upstream.pid);

  // --- stop everything (profiles are written when the proxies exit)
  await Promise.all(NAMES.map((n) => targets[n].pool.close()));
  await Promise.all([floor.child.stop(), headroom.child.stop()]);
  await upstream.stop();

  // --- report
  const t = (phase: string, name: Name) => totals[phase]![name];
  const value = (f: (name: Name) => number, names: readonly Name[] = NAMES): Partial<Record<Name, number>> =>
    Object.fromEntries(names.map((n) => [n, f(n)]));
  const proxies = ['floor', 'headroom'] as const;
  const smallCpu = (n: Name) => (t('c1', n).cpuMs + t('c32', n).cpuMs) / (t('c1', n).requests + t('c32', n).requests);
  const rows: Row[] = [
    { label: 'p50 latency, small, c=1', unit: 'ms', ...value((n) => median(t('c1', n).totalMs)), digits: 3 },
    { label: 'p99 latency, small, c=1', unit: 'ms', ...value((n) => percentile(t('c1', n).totalMs, 99)), digits: 3 },
    { label: 'p50 latency, small, c=32', unit: 'ms', ...value((n) => median(t('c32', n).totalMs)), digits: 3 },
    { label: 'p99 latency, small, c=32', unit: 'ms', ...value((n) => percentile(t('c32', n).totalMs, 99)), digits: 3 },
    {
      label: 'throughput, small, c=32',
      unit: 'req/s',
      ...value((n) => (t('c32', n).totalMs.length * 1000) / t('c32', n).wallMs),
      digits: 0,
    },
    {
      label: `stream TTFB p50, ${STREAM_DELTAS} ev, c=16`,
      unit: 'ms',
      ...value((n) => median(t('stream', n).ttfbMs)),
      digits: 3,
    },
    {
      label: `stream TTFB p99, ${STREAM_DELTAS} ev, c=16`,
      unit: 'ms',
      ...value((n) => percentile(t('stream', n).ttfbMs, 99)),
      digits: 3,
    },
    {
      label: `stream total p50, ${STREAM_DELTAS} ev, c=16`,
      unit: 'ms',
      ...value((n) => median(t('stream', n).totalMs)),
      digits: 3,
    },
    {
      label: `stream total p99, ${STREAM_DELTAS} ev, c=16`,
      unit: 'ms',
      ...value((n) => percentile(t('stream', n).totalMs, 99)),
      digits: 3,
    },
    { label: 'proxy CPU per small request', unit: 'ms', ...value(smallCpu, proxies), digits: 4 },
    {
      label: 'proxy CPU per stream',
      unit: 'ms',
      ...value((n) => t('stream', n).cpuMs / t('stream', n).requests, proxies),
      digits: 4,
    },
    {
      label: 'RSS after start (idle)',
      unit: 'MB',
      ...value((n) => mb(idleRss[n as 'floor' | 'headroom']), proxies),
      digits: 1,
    },
    {
      label: 'peak RSS (VmHWM), after rounds',
      unit: 'MB',
      ...value((n) => mb(peak[n as 'floor' | 'headroom']), proxies),
      digits: 1,
    },
    {
      label: 'start: spawn → ready line (median)',
      unit: 'ms',
      ...value((n) => median(startSamples[n as 'floor' | 'headroom'].ready), proxies),
      digits: 0,
    },
    {
      label: 'start: spawn → /health answered (median)',
      unit: 'ms',
      ...value((n) => median(startSamples[n as 'floor' | 'headroom'].answer), proxies),
      digits: 0,
    },
  ];

  const out: string[] = [];
  const say = (line = '') => out.push(line);
  say(
    `Headroom benchmark — scale ${SCALE}, ${PLAN.rounds} interleaved rounds, node ${process.version}, CLK_TCK ${clockTicks()}${PROFILE ? ', PROFILED (--cpu-prof overhead included)' : ''}`,
  );
  say(`Headroom: ${entry.how}`);
  say(
    `per round and target: c=1 × ${PLAN.c1.requests}, c=32 × ${PLAN.c32.requests}, ${STREAM_DELTAS}-event streams c=16 × ${PLAN.stream.requests}; ` +
      `start times: median of ${PLAN.starts} cold starts (fresh data dir)`,
  );
  say();
  say(formatTable(rows));
  const errorLines = phases.flatMap((p) =>
    NAMES.filter((n) => t(p.id, n).errors > 0).map(
      (n) => `  ${n} ${p.id}: ${t(p.id, n).errors} errors, first: ${t(p.id, n).firstError}`,
    ),
  );
  if (errorLines.length > 0) {
    say();
    say('ERRORS during the measured rounds:');
    for (const line of errorLines) say(line);
  }
  say();
  say(
    `start samples (ready line / /health), ms — floor: ${startSamples.floor.ready.map((v, i) => `${v.toFixed(0)}/${startSamples.floor.answer[i]?.toFixed(0)}`).join(', ')}; ` +
      `headroom: ${startSamples.headroom.ready.map((v, i) => `${v.toFixed(0)}/${startSamples.headroom.answer[i]?.toFixed(0)}`).join(', ')}`,
  );
  const perRound = (phase: string, name: Name) => {
    const p = t(phase, name);
    return `${name} ${((p.totalMs.length * 1000) / p.wallMs).toFixed(0)}`;
  };
  say(
    `c=32 aggregate req/s: ${NAMES.map((n) => perRound('c32', n)).join(', ')}; upstream CPU over the run: ${(upstreamCpuMs / 1000).toFixed(1)} s`,
  );

  say();
  const history = historyReport(PLAN.history, slices);
  say(history.text);
  say(`Headroom peak RSS after the history slices: ${mb(peakAfterHistory).toFixed(1)} MB`);

  // --- targets (ratios to the floor, same run)
  const hrOverFloor = (row: Row) => (row.headroom ?? NaN) / (row.floor ?? NaN);
  const rowBy = (label: string) => rows.find((r) => r.label.startsWith(label))!;
  const ratioCheck = (label: string, rowLabel: string, limit: number): Check => {
    const r = hrOverFloor(rowBy(rowLabel));
    return { label, measured: `${r.toFixed(3)}× floor`, target: `≤ ${limit}×`, pass: r <= limit };
  };
  const startMs = median(startSamples.headroom.answer);
  const checks: Check[] = [
    ratioCheck('p50 latency at c=1', 'p50 latency, small, c=1', 1.3),
    ratioCheck('stream TTFB (p50)', 'stream TTFB p50', 1.3),
    ratioCheck('CPU per request (small)', 'proxy CPU per small request', 2),
    ratioCheck('peak RSS', 'peak RSS (VmHWM)', 1.5),
    {
      label: 'start (spawn → /health 200, median)',
      measured: `${startMs.toFixed(0)} ms`,
      target: '< 1500 ms',
      pass: startMs < 1500,
    },
    ...history.checks,
  ];
  if (errorLines.length > 0)
    checks.push({
      label: 'no request failed',
      measured: `${errorLines.length} phase(s) with errors`,
      target: '0',
      pass: false,
    });
  say();
  say('Targets (Headroom vs the floor, same run):');
  say(formatChecks(checks));
  say();
  say(`total bench time ${((performance.now() - began) / 1000).toFixed(1)} s`);

  console.log(out.join('\n'));
  const json = { scale: SCALE, plan: PLAN, entry: entry.how, rows, slices, checks, startSamples, profiled: PROFILE };
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench', 'last-run.json'), JSON.stringify(json, null, 2));

  if (PROFILE) {
    for (const name of ['floor', 'headroom']) {
      const file = join(profileDir, `${name}.cpuprofile`);
      console.log(`\n=== CPU profile: ${name} (${file}) ===`);
      if (!existsSync(file)) {
        console.log('(profile not written)');
        continue;
      }
      const summary = summarizeProfile(file, 30);
      const requests = sent[name as Name];
      console.log(
        `${requests} requests sent (incl. warm-up) → ${(summary.busyMs / requests).toFixed(4)} ms sampled busy time per request`,
      );
      console.log(summary.text);
    }
  }
}

main().then(
  () => stopAll().then(() => process.exit(0)),
  (error: unknown) => {
    // After Ctrl-C the children vanish under the running batch; the signal handler reports and exits.
    if (interrupted()) return;
    console.error(`bench: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void stopAll().finally(() => process.exit(1));
  },
);
