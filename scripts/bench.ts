/**
 * `npm run bench`: how much a request pays for going through Leeway, measured against a direct
 * call to the upstream and against the FLOOR (a minimal node:http + undici pass-through proxy).
 *
 * Five processes: this one (the load generator only), the fake upstream, the floor, Leeway with
 * its default config and Leeway with EVERY ENGINE ON (a `*` route to a two-connection round-robin
 * combo, one `x-leeway-session` per virtual client), each a child so its CPU and peak RSS can be
 * read from /proc and so the upstream's work does not share the load generator's event loop.
 * Targets are measured in INTERLEAVED rounds (the order rotating each round), so machine noise and
 * drift fall on all alike; every number is also printed as a ratio to the floor of the same run.
 * Phases: small bodies at c=1 and c=32, 50-event SSE streams at c=16, and "Claude Code-shaped"
 * bodies (~70 KB: long system prompt, 24 tools, 20 turns) plain and streamed. It is a measurement:
 * the exit code is 0 unless something crashed.
 *
 * Flags / env: --quick (BENCH_SCALE=0.4, under 2 minutes), BENCH_SCALE (default 1),
 * --profile or BENCH_PROFILE=1 (run the proxies under --cpu-prof and print where their time went;
 * the numbers then include the profiler's overhead), --phases=c1,c32,stream,cc,cc-stream (order;
 * a subset is allowed), --pin=CPUS or BENCH_PIN (taskset the proxies, e.g. 1), --no-history,
 * BENCH_LEEWAY_ENTRY=path (bench another headless entry, e.g. a build of another tree),
 * --no-translated (skip the translated rows of issue 12, scripts/bench/translated.ts, run last),
 * --only-translated (run only those). Leeway gets its launcher's node flags (bin/runtime-flags.mjs;
 * BENCH_RUNTIME_FLAGS=0 runs it without), BENCH_NODE_FLAGS adds more; the floor runs with none.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { interrupted, spawnNode, stopAll } from './bench/children';
import { headlessEntry, type Started } from './bench/launch';
import { emptyTotals, historyReport, runHistory, type HistoryPlan, type Slice, type Totals } from './bench/history';
import { createTarget, runBatch, type BatchResult, type Kind, type Target } from './bench/load';
import { clockTicks, cpuMs, memory, procAvailable } from './bench/proc-stats';
import { summarizeProfile } from './bench/profile-summary';
import { launchEngines, launchFloor, launchLeeway, type LaunchSetup } from './bench/proxies';
import { formatChecks, formatTable, mb, type Check } from './bench/report';
import { fairShareCheck } from './bench/quota-row';
import { buildChecks, buildRows, type AllTotals, type Name, type PhaseId, type ProxyFacts } from './bench/results';
import { LOCAL_KEY, STREAM_DELTAS, UPSTREAM_KEY } from './bench/shared';
import { runTranslated } from './bench/translated';
import { NODE_RUNTIME_FLAGS } from '../bin/runtime-flags.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const QUICK = flag('quick');
const SCALE = (() => {
  const value = Number(process.env.BENCH_SCALE ?? (QUICK ? '0.4' : '1'));
  return Number.isFinite(value) && value > 0 ? value : 1;
})();
const PROFILE = process.env.BENCH_PROFILE === '1' || flag('profile');
const PIN = option('pin') ?? process.env.BENCH_PIN ?? null;
const HISTORY = !flag('no-history');
const TRANSLATED = !flag('no-translated');
const ONLY_TRANSLATED = flag('only-translated');
const scaled = (n: number, min: number) => Math.max(min, Math.round(n * SCALE));

const PHASE_KIND: Record<PhaseId, Kind> = {
  c1: 'small',
  c32: 'small',
  stream: 'stream',
  cc: 'cc',
  'cc-stream': 'cc-stream',
};
/** Streams before the Claude Code-shaped phases on purpose: the order of the reading issue 9 asks about. */
const PHASE_ORDER: PhaseId[] = (() => {
  const given = option('phases');
  if (!given) return ['c1', 'c32', 'stream', 'cc', 'cc-stream'];
  const ids = given.split(',').filter((id): id is PhaseId => id in PHASE_KIND);
  if (ids.length === 0) throw new Error(`--phases: none of ${given} is one of ${Object.keys(PHASE_KIND).join(',')}`);
  return ids;
})();

/** Sizes at BENCH_SCALE=1, chosen to keep the whole run near 3–4 minutes on 2 busy cores. */
const PLAN = {
  rounds: SCALE < 0.5 ? 3 : 10,
  c1: { concurrency: 1, requests: scaled(300, 60) },
  c32: { concurrency: 32, requests: scaled(2000, 400) },
  stream: { concurrency: 16, requests: scaled(200, 48) },
  cc: { concurrency: 4, requests: scaled(400, 80) },
  'cc-stream': { concurrency: 4, requests: scaled(100, 24) },
  warmup: { small: scaled(1500, 300), stream: scaled(150, 32), cc: scaled(200, 40) },
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

const NAMES: readonly Name[] = ['direct', 'floor', 'leeway', 'engines'];
const PROXIES = ['floor', 'leeway', 'engines'] as const;

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** Load average next to each reading: a run on a CPU others saturate says so. */
function load(): string {
  return loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
}

async function main(): Promise<void> {
  const began = performance.now();
  if (!procAvailable()) log('WARNING: /proc is not readable; CPU and RSS columns will be empty');
  const entry = await headlessEntry(root, log);
  // Leeway runs with the flags its launcher gives it (bin/runtime-flags.mjs), unless
  // BENCH_RUNTIME_FLAGS=0; BENCH_NODE_FLAGS adds more (e.g. --trace-gc) to both Leeway runs.
  const runtimeFlags = process.env.BENCH_RUNTIME_FLAGS === '0' ? [] : [...NODE_RUNTIME_FLAGS];
  const leewayArgs = [
    ...runtimeFlags,
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f.length > 0),
    ...entry.args,
  ];
  const entryHow = `${entry.how}; node flags: ${runtimeFlags.length > 0 ? runtimeFlags.join(' ') : 'none (BENCH_RUNTIME_FLAGS=0)'}`;
  const work = mkdtempSync(join(tmpdir(), 'leeway-bench-'));
  const profileDir = join(root, '.bench', `profiles-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  if (PROFILE) mkdirSync(profileDir, { recursive: true });
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  const translatedRows = () => runTranslated({ root, work, entryArgs: leewayArgs, pin: PIN, scale: SCALE, log });
  if (ONLY_TRANSLATED) {
    const only = await translatedRows();
    console.log(only.text);
    if (only.failed) throw new Error(`translated rows: ${only.failed}`);
    return;
  }
  const loadAtStart = load();
  log(`scale ${SCALE}, ${PLAN.rounds} interleaved rounds, phases ${PHASE_ORDER.join(' → ')}; Leeway from ${entryHow}`);
  log(`load average at start: ${loadAtStart}${PIN ? `; proxies pinned to CPU ${PIN}` : ''}`);

  // --- upstream (its own process: its CPU must not run inside the load generator's event loop)
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
    entryArgs: leewayArgs,
    profileDir: PROFILE ? profileDir : null,
    pin: PIN,
  };

  // --- start times: throw-away cold starts first (alternating), the kept instances last
  const facts: ProxyFacts = {
    idleRss: { floor: NaN, leeway: NaN, engines: NaN },
    peakRss: { floor: NaN, leeway: NaN, engines: NaN },
    startReady: { floor: [], leeway: [], engines: [] },
    startAnswer: { floor: [], leeway: [], engines: [] },
  };
  const noteStart = (name: (typeof PROXIES)[number], s: Started) => {
    facts.startReady[name].push(s.child.startMs);
    facts.startAnswer[name].push(s.answerMs);
  };
  for (let i = 0; i < PLAN.starts - 1; i++) {
    const f = await launchFloor(setup, false);
    noteStart('floor', f);
    await f.child.stop();
    const h = await launchLeeway(setup, false);
    noteStart('leeway', h);
    await h.child.stop();
  }
  const floor = await launchFloor(setup, PROFILE);
  noteStart('floor', floor);
  const leeway = await launchLeeway(setup, PROFILE);
  noteStart('leeway', leeway);
  const enginesRun = await launchEngines(setup, PROFILE);
  const engines = enginesRun.started;
  noteStart('engines', engines);
  for (const note of enginesRun.status.notes) log(`engines: ${note}`);
  const children = { floor: floor.child, leeway: leeway.child, engines: engines.child };
  for (const n of PROXIES) facts.idleRss[n] = memory(children[n].pid).rss;
  const pids: Record<Name, number | null> = {
    direct: null,
    floor: floor.child.pid,
    leeway: leeway.child.pid,
    engines: engines.child.pid,
  };

  const maxConcurrency = Math.max(...PHASE_ORDER.map((id) => PLAN[id].concurrency), PLAN.history.concurrency);
  const targets: Record<Name, Target> = {
    direct: createTarget('direct', upstream.readyValue, UPSTREAM_KEY, maxConcurrency),
    floor: createTarget('floor', floor.child.readyValue, UPSTREAM_KEY, maxConcurrency),
    leeway: createTarget('leeway', leeway.child.readyValue, LOCAL_KEY, maxConcurrency),
    engines: createTarget('engines', engines.child.readyValue, LOCAL_KEY, maxConcurrency, {
      model: enginesRun.status.model,
      sessions: true,
    }),
  };

  const crashed = (): string | null => {
    const gone = [upstream, floor.child, leeway.child, engines.child].find((c) => !c.running());
    return gone ? `${gone.name} (pid ${gone.pid}) exited during the run:\n${gone.output()}` : null;
  };

  /** Every request each target was sent (warm-up included), to put profiles per request. */
  const sent: Record<Name, number> = { direct: 0, floor: 0, leeway: 0, engines: 0 };
  /** A batch whose proxy CPU is read around it. */
  const measured = async (
    name: Name,
    kind: Kind,
    concurrency: number,
    requests: number,
    into: Totals,
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

  // --- warm-up (JIT, sockets), not recorded; in the measured order, so no phase sees a cold path
  log('warming up');
  for (const name of NAMES) {
    const sink = emptyTotals();
    await measured(name, 'small', 8, PLAN.warmup.small, sink);
    await measured(name, 'stream', 8, PLAN.warmup.stream, sink);
    await measured(name, 'cc', 4, PLAN.warmup.cc, sink);
    await measured(name, 'cc-stream', 4, Math.ceil(PLAN.warmup.cc / 4), sink);
    if (sink.errors > 0) throw new Error(`${name}: ${sink.errors} errors during warm-up, first: ${sink.firstError}`);
  }

  // --- interleaved rounds
  const fresh = () => ({
    direct: emptyTotals(),
    floor: emptyTotals(),
    leeway: emptyTotals(),
    engines: emptyTotals(),
  });
  const totals: AllTotals = { c1: fresh(), c32: fresh(), stream: fresh(), cc: fresh(), 'cc-stream': fresh() };
  for (let round = 0; round < PLAN.rounds; round++) {
    const order = NAMES.map((_, i) => NAMES[(i + round) % NAMES.length] as Name);
    log(`round ${round + 1}/${PLAN.rounds} (${order.join(' → ')}), load ${load()}`);
    for (const id of PHASE_ORDER) {
      const phase = PLAN[id];
      for (const name of order)
        await measured(name, PHASE_KIND[id], phase.concurrency, phase.requests, totals[id][name]);
    }
    const gone = crashed();
    if (gone) throw new Error(gone);
  }
  for (const n of PROXIES) facts.peakRss[n] = memory(children[n].pid).peakRss;
  const loadAfterRounds = load();

  // --- history: slices through Leeway (default config), alternating with the floor as a drift control
  let slices: Slice[] = [];
  if (HISTORY) {
    log(
      `history: ${PLAN.history.slices} slices × ${PLAN.history.perSlice + PLAN.history.probe} requests through Leeway`,
    );
    slices = await runHistory(
      PLAN.history,
      measured,
      () => memory(leeway.child.pid).rss,
      () => {
        const gone = crashed();
        if (gone) throw new Error(gone);
      },
    );
  }
  const peakAfterHistory = memory(leeway.child.pid).peakRss;
  const upstreamCpuMs = cpuMs(upstream.pid);
  const loadAtEnd = load();

  // --- stop everything (profiles are written when the proxies exit)
  await Promise.all(NAMES.map((n) => targets[n].pool.close()));
  await Promise.all(PROXIES.map((n) => children[n].stop()));
  await upstream.stop();

  // --- the quota engine's own micro-benchmark (issue 10), alone on the machine once the proxies are gone
  log('quota fair-share micro-benchmark');
  const fairShare = await fairShareCheck(root);
  // --- issue 12: translated vs pass-through, on its own Leeway, once the others are gone
  const translated = TRANSLATED ? await translatedRows() : null;

  // --- report
  const concurrency = Object.fromEntries(
    (Object.keys(PHASE_KIND) as PhaseId[]).map((id) => [id, PLAN[id].concurrency]),
  ) as Record<PhaseId, number>;
  const rows = buildRows(totals, facts, concurrency);
  const out: string[] = [];
  const say = (line = '') => out.push(line);
  say(
    `Leeway benchmark — scale ${SCALE}${QUICK ? ' (--quick)' : ''}, ${PLAN.rounds} interleaved rounds, node ${process.version}, CLK_TCK ${clockTicks()}${PROFILE ? ', PROFILED (--cpu-prof overhead included)' : ''}${PIN ? `, proxies pinned to CPU ${PIN}` : ''}`,
  );
  say(`Leeway: ${entryHow}`);
  say(`load average (1/5/15 min): start ${loadAtStart}; after the rounds ${loadAfterRounds}; end ${loadAtEnd}`);
  say(
    `per round and target, in this order: ${PHASE_ORDER.map((id) => `${id} c=${PLAN[id].concurrency} × ${PLAN[id].requests}`).join(', ')}; ` +
      `streams are ${STREAM_DELTAS} events; CC = Claude Code-shaped body (${(targets.floor.bodies.cc.length / 1024).toFixed(1)} KB)`,
  );
  say('engines = Leeway with every engine on:');
  for (const note of enginesRun.status.notes) say(`  ${note}`);
  say();
  say(formatTable(rows));
  const errorLines = PHASE_ORDER.flatMap((id) =>
    NAMES.filter((n) => totals[id][n].errors > 0).map(
      (n) => `  ${n} ${id}: ${totals[id][n].errors} errors, first: ${totals[id][n].firstError}`,
    ),
  );
  if (errorLines.length > 0) {
    say();
    say('ERRORS during the measured rounds:');
    for (const line of errorLines) say(line);
  }
  say();
  say(
    `start samples (ready line / /health), ms — ${PROXIES.map((n) => `${n}: ${facts.startReady[n].map((v, i) => `${v.toFixed(0)}/${facts.startAnswer[n][i]?.toFixed(0)}`).join(', ')}`).join('; ')}`,
  );
  say(`upstream CPU over the run: ${(upstreamCpuMs / 1000).toFixed(1)} s`);

  const checks: Check[] = [];
  if (HISTORY) {
    say();
    const history = historyReport(PLAN.history, slices);
    say(history.text);
    say(`Leeway peak RSS after the history slices: ${mb(peakAfterHistory).toFixed(1)} MB`);
    checks.push(...history.checks);
  }
  const startMs = (n: 'leeway' | 'engines') => {
    const ms = facts.startAnswer[n].slice().sort((a, b) => a - b)[Math.floor(facts.startAnswer[n].length / 2)] ?? NaN;
    return {
      label: 'start (spawn → /health 200, median)',
      measured: `${ms.toFixed(0)} ms`,
      target: '< 1500 ms',
      pass: ms < 1500,
    };
  };
  const failed: Check[] =
    errorLines.length > 0
      ? [
          {
            label: 'no request failed',
            measured: `${errorLines.length} phase(s) with errors`,
            target: '0',
            pass: false,
          },
        ]
      : [];
  say();
  say('Targets, issue 9 — Leeway with EVERY ENGINE ON vs the floor, same run:');
  say(formatChecks([...buildChecks(rows, 'engines'), ...failed]));
  say();
  say('Same targets — Leeway, default config (one connection, no engines configured):');
  say(formatChecks([...buildChecks(rows, 'leeway'), startMs('leeway'), ...checks]));
  say();
  say('Quota engine, issue 10 (in-process micro-benchmark):');
  if (fairShare) {
    say(formatChecks([fairShare.check]));
    say(`  ${fairShare.detail}`);
  } else say('  scripts/bench/quota-micro.ts is not in this tree: fair-share decision not measured');
  if (translated) {
    say();
    say(translated.text);
  }
  say();
  say(`total bench time ${((performance.now() - began) / 1000).toFixed(1)} s`);

  console.log(out.join('\n'));
  const json = {
    scale: SCALE,
    plan: PLAN,
    phases: PHASE_ORDER,
    pin: PIN,
    load: { start: loadAtStart, afterRounds: loadAfterRounds, end: loadAtEnd },
    entry: entryHow,
    engines: enginesRun.status,
    rows,
    slices,
    checks: {
      engines: buildChecks(rows, 'engines'),
      leeway: buildChecks(rows, 'leeway'),
      history: checks,
      quota: fairShare ? [fairShare.check] : [],
    },
    facts,
    profiled: PROFILE,
    translated: translated?.json ?? null,
  };
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench', 'last-run.json'), JSON.stringify(json, null, 2));

  if (PROFILE) {
    for (const name of PROXIES) {
      const file = join(profileDir, `${name}.cpuprofile`);
      console.log(`\n=== CPU profile: ${name} (${file}) ===`);
      if (!existsSync(file)) {
        console.log('(profile not written)');
        continue;
      }
      const summary = summarizeProfile(file, 30);
      const requests = sent[name];
      console.log(
        `${requests} requests sent (incl. warm-up) → ${(summary.busyMs / requests).toFixed(4)} ms sampled busy time per request`,
      );
      console.log(summary.text);
    }
  }
  if (translated?.failed) throw new Error(`translated rows: ${translated.failed}`);
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
