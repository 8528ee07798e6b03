/**
 * The translated rows of `npm run bench` (issue 12): what a request pays when Leeway translates
 * it between Anthropic Messages and OpenAI Chat Completions (and Responses → Chat), measured beside
 * the same client's pass-through on the same Leeway in INTERLEAVED rounds (the two lanes of a pair
 * swap order every round). Rows: p50 latency (streams: TTFB too) and proxy CPU per request read
 * from /proc, with the ratio translated / pass-through. A measurement: no pass/fail targets.
 *
 * bench.ts runs it last (skip with --no-translated, alone with --only-translated); it also runs by
 * itself: `node --import tsx scripts/bench/translated.ts [--quick]` (BENCH_SCALE, BENCH_PIN apply).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { stopAll } from './children';
import { emptyTotals, type Totals } from './history';
import { headlessEntry } from './launch';
import { cpuMs } from './proc-stats';
import { formatGrid, median } from './report';
import { LOCAL_KEY, MODEL, STREAM_DELTAS } from './shared';
import { createLane, runLane, type Lane } from './translated-load';
import { OPENAI_MODEL, probeLane, RESPONSES_MODEL, startTranslated, type TranslatedSetup } from './translated-setup';
import type { Client, Shape } from './translated-wire';

export interface TranslatedOptions extends TranslatedSetup {
  scale: number;
  log: (line: string) => void;
}

export interface TranslatedResult {
  /** The report section, ready to print. */
  text: string;
  /** For .bench/last-run.json. */
  json: unknown;
  /** Why the step could not measure (or had errors), or null. */
  failed: string | null;
}

interface Pair {
  label: string;
  client: Client;
  shape: Shape;
  concurrency: number;
  requests: number;
  warmup: number;
  /** The model each lane asks for: it picks the connection, so the path. */
  pass: string;
  translated: string;
}

function plan(scale: number): { rounds: number; pairs: Pair[] } {
  const n = (count: number, min: number) => Math.max(min, Math.round(count * scale));
  const pair = (
    label: string,
    client: Client,
    shape: Shape,
    concurrency: number,
    requests: number,
    pass: string,
    translated: string,
  ): Pair => ({
    label,
    client,
    shape,
    concurrency,
    requests: n(requests, Math.ceil(requests / 5)),
    // One and a half rounds: V8 must have optimised both paths before round 1, whose first lane runs colder.
    warmup: n(Math.ceil(requests * 1.5), Math.ceil(requests / 3)),
    pass,
    translated,
  });
  // About 40 s at scale 1 and 20 s with --quick on 2 cores at load 9 (warm-up included; budget 60 / 25 s).
  const stream = `stream ${STREAM_DELTAS} ev`;
  return {
    rounds: scale < 0.5 ? 3 : 6,
    pairs: [
      pair('Anthropic → chat, small', 'anthropic', 'small', 1, 100, MODEL, OPENAI_MODEL),
      pair(`Anthropic → chat, ${stream}`, 'anthropic', 'stream', 4, 50, MODEL, OPENAI_MODEL),
      pair('Anthropic → chat, CC-shaped', 'anthropic', 'cc', 4, 50, MODEL, OPENAI_MODEL),
      pair('Anthropic → chat, CC-shaped stream', 'anthropic', 'cc-stream', 4, 20, MODEL, OPENAI_MODEL),
      pair('OpenAI → messages, small', 'openai', 'small', 1, 100, OPENAI_MODEL, MODEL),
      pair(`OpenAI → messages, ${stream}`, 'openai', 'stream', 4, 50, OPENAI_MODEL, MODEL),
      pair(`Responses → chat, ${stream}`, 'responses', 'stream', 4, 50, RESPONSES_MODEL, OPENAI_MODEL),
    ],
  };
}

const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

type Side = 'pass' | 'translated';

/** Runs the step; never throws for a measurement problem (the caller prints `text`, then fails on `failed`). */
export async function runTranslated(options: TranslatedOptions): Promise<TranslatedResult> {
  const began = performance.now();
  const { rounds, pairs } = plan(options.scale);
  const lanes = pairs.map((p) => ({
    pass: createLane(p.client, p.shape, p.pass, LOCAL_KEY),
    translated: createLane(p.client, p.shape, p.translated, LOCAL_KEY),
  }));
  const totals = pairs.map(() => ({ pass: emptyTotals(), translated: emptyTotals() }));
  const notes: string[] = [];
  const loadAtStart = load();
  let failed: string | null = null;
  /** Indexes of the pairs whose probe passed; the rounds measure only these. */
  const live: number[] = [];
  const skipped: string[] = [];
  let pool: Pool | null = null;
  const procs = await startTranslated(options).catch((error: unknown) => {
    failed = `could not start: ${error instanceof Error ? error.message : String(error)}`;
    return null;
  });
  try {
    if (procs) {
      const origin = procs.leeway.readyValue;
      const pid = procs.leeway.pid;
      pool = new Pool(origin, { connections: 8, pipelining: 1, keepAliveTimeout: 60_000, bodyTimeout: 30_000 });
      const open = pool;
      // A pair this build cannot serve (yet) is left out and said so; the others are still measured.
      for (const [i, lane] of lanes.entries()) {
        try {
          const seen = [await probeLane(origin, lane.pass, false), await probeLane(origin, lane.translated, true)];
          notes.push(`${pairs[i]?.label ?? i}: ${seen.join('; ')}`);
          live.push(i);
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          skipped.push(`${pairs[i]?.label ?? i}: NOT MEASURED (${why})`);
        }
      }
      const measure = async (lane: Lane, concurrency: number, requests: number, into: Totals) => {
        // Unrecorded: re-opens any socket a keep-alive timeout closed while the other lanes ran.
        await runLane(open, lane, concurrency, concurrency);
        const cpu0 = cpuMs(pid);
        const result = await runLane(open, lane, concurrency, requests);
        into.cpuMs += cpuMs(pid) - cpu0;
        for (const v of result.totalMs) into.totalMs.push(v);
        for (const v of result.ttfbMs) into.ttfbMs.push(v);
        into.wallMs += result.wallMs;
        into.requests += result.totalMs.length + result.errors;
        into.errors += result.errors;
        into.firstError ??= result.firstError;
      };
      options.log('translated rows: warming up');
      for (const i of live) {
        const p = pairs[i] ?? never();
        const sink = emptyTotals();
        for (const side of ['pass', 'translated'] as const)
          await measure(lanes[i]?.[side] ?? never(), p.concurrency, p.warmup, sink);
        if (sink.errors > 0)
          throw new Error(`${p.label}: ${sink.errors} errors during warm-up, first: ${sink.firstError}`);
      }
      for (let round = 0; round < rounds; round++) {
        options.log(`translated rows: round ${round + 1}/${rounds}, load ${load()}`);
        const order: Side[] = round % 2 === 0 ? ['pass', 'translated'] : ['translated', 'pass'];
        for (const i of live)
          for (const side of order) {
            const p = pairs[i] ?? never();
            await measure(lanes[i]?.[side] ?? never(), p.concurrency, p.requests, totals[i]?.[side] ?? never());
          }
        const gone = procs.all.find((c) => !c.running());
        if (gone) throw new Error(`${gone.name} (pid ${gone.pid}) exited during the run:\n${gone.output()}`);
      }
    }
  } catch (error) {
    failed = error instanceof Error ? error.message : String(error);
  } finally {
    await pool?.close();
    await Promise.all(procs?.all.map((c) => c.stop()) ?? []);
  }
  const errorLines = pairs.flatMap((p, i) =>
    (['pass', 'translated'] as const)
      .filter((side) => (totals[i]?.[side].errors ?? 0) > 0)
      .map(
        (side) => `  ${p.label}, ${side}: ${totals[i]?.[side].errors} errors, first: ${totals[i]?.[side].firstError}`,
      ),
  );
  if (failed === null && errorLines.length > 0) failed = `${errorLines.length} lane(s) had errors`;
  if (failed === null && skipped.length > 0) failed = `${skipped.length} of ${pairs.length} pairs not measured`;
  const rows = buildRows(pairs, totals);
  const seconds = (performance.now() - began) / 1000;
  const text = [
    `Translated requests, issue 12 — one Leeway, the model picks the connection; ${rounds} interleaved rounds, ` +
      `load average ${loadAtStart} at start, ${load()} at end, ${seconds.toFixed(1)} s:`,
    `  pass-through: Anthropic client → anthropic connection; OpenAI client → openai-compatible; Responses → openai-compatible with responsesApi (native)`,
    `  translated: the same client → the connection of the other format (Responses → Chat Completions)`,
    ...notes.map((n) => `  ${n}`),
    '',
    formatGrid(['metric', 'unit', 'pass-through', 'translated', 'trans/pass'], rows, 2),
    ...(failed ? ['', `TRANSLATED ROWS FAILED: ${failed}`, ...skipped.map((line) => `  ${line}`), ...errorLines] : []),
  ].join('\n');
  const json = {
    rounds,
    pairs: pairs.map(({ label, client, shape, concurrency, requests, pass, translated }) => ({
      label,
      client,
      shape,
      concurrency,
      requests,
      pass,
      translated,
    })),
    rows,
    notes,
    skipped,
    load: { start: loadAtStart, end: load() },
    seconds,
    failed,
  };
  return { text, json, failed };
}

function never(): never {
  throw new Error('translated rows: lane index out of range');
}

function buildRows(pairs: readonly Pair[], totals: readonly Record<Side, Totals>[]): string[][] {
  const fmt = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
  const ratio = (a: number, b: number) =>
    Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—';
  const row = (
    label: string,
    unit: string,
    f: (t: Totals) => number,
    digits: number,
    t: Record<Side, Totals> | undefined,
  ) => {
    const pass = t ? f(t.pass) : NaN;
    const translated = t ? f(t.translated) : NaN;
    return [label, unit, fmt(pass, digits), fmt(translated, digits), ratio(translated, pass)];
  };
  return pairs.flatMap((p, i) => {
    const t = totals[i];
    const at = `${p.label}, c=${p.concurrency}`;
    const streamed = p.shape === 'stream' || p.shape === 'cc-stream';
    return [
      row(`${at}: p50 ${streamed ? 'total' : 'latency'}`, 'ms', (x) => median(x.totalMs), 3, t),
      ...(streamed ? [row(`${at}: TTFB p50`, 'ms', (x) => median(x.ttfbMs), 3, t)] : []),
      row(`${at}: proxy CPU per request`, 'ms', (x) => x.cpuMs / x.requests, 4, t),
    ];
  });
}

/** `node --import tsx scripts/bench/translated.ts [--quick]`: the step alone, same entry rules as the bench. */
async function standalone(): Promise<void> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  const quick = process.argv.includes('--quick');
  const value = Number(process.env.BENCH_SCALE ?? (quick ? '0.4' : '1'));
  const scale = Number.isFinite(value) && value > 0 ? value : 1;
  const entry = await headlessEntry(root, log);
  const work = mkdtempSync(join(tmpdir(), 'leeway-bench-translated-'));
  try {
    log(`translated rows, scale ${scale}; Leeway from ${entry.how}`);
    const result = await runTranslated({
      root,
      work,
      entryArgs: entry.args,
      pin: process.env.BENCH_PIN ?? null,
      scale,
      log,
    });
    console.log(result.text);
    if (result.failed) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
    await stopAll();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  standalone().catch((error: unknown) => {
    console.error(`bench: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  });
}
