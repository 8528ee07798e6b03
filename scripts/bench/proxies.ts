/**
 * The proxies under test and how they are started: the floor, Leeway with its default config (one
 * connection) and Leeway with EVERY ENGINE ON (a `*` route to a two-connection round-robin combo,
 * session affinity through `x-leeway-session`). Config keys a Leeway build does not know yet are
 * dropped one by one until it starts, and the run says which engine was not available.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as undiciRequest } from 'undici';
import { spawnNode } from './children';
import { startFloor } from './floor-proxy';
import { freePort, timeToAnswer, type Started } from './launch';
import { LOCAL_KEY, MODEL, UPSTREAM_KEY } from './shared';

export interface LaunchSetup {
  root: string;
  work: string;
  upstreamUrl: string;
  /** Leeway's entry (node args before --port). */
  entryArgs: string[];
  profileDir: string | null;
  /** CPU list for `taskset -c` (proxies only), or null. */
  pin: string | null;
}

/** What the engines run really got, found out at start. */
export interface EngineStatus {
  /** The model the bench must ask for: MODEL through the `*` route, or the combo's name without routes. */
  model: string;
  notes: string[];
}

const COMBO = 'main';
/** A second local key the bench never sends, so the pool really splits its quota between two keys. */
const OTHER_KEY = 'lw-bench-other-key-9876543210';
/** Far above anything a run sends: the pool's checks and records run, its limit never blocks. */
const POOL_LIMIT = 1e12;
let seq = 0;

function baseConfig(upstreamUrl: string): Record<string, unknown> {
  return {
    connections: [{ name: 'bench', kind: 'anthropic', baseUrl: upstreamUrl, apiKey: UPSTREAM_KEY, models: [MODEL] }],
    keys: [{ name: 'bench', key: LOCAL_KEY }],
  };
}

interface EngineVariant {
  routes: boolean;
  strategy: boolean;
  /** A quota pool over both connections that covers the bench key (issue 10): pre-check and post-record run. */
  pool: boolean;
}

function enginesConfig(upstreamUrl: string, v: EngineVariant): Record<string, unknown> {
  const connection = (name: string) => ({
    name,
    kind: 'anthropic',
    baseUrl: upstreamUrl,
    apiKey: UPSTREAM_KEY,
    // A model a connection lists is an exact match and wins over routes (issue 9 §5): with the `*`
    // route on, the connections serve any model so the route, and the combo's strategy, decide.
    ...(v.routes ? {} : { models: [MODEL] }),
  });
  return {
    connections: [connection('bench-a'), connection('bench-b')],
    keys: [{ name: 'bench', key: LOCAL_KEY }, ...(v.pool ? [{ name: 'bench-other', key: OTHER_KEY }] : [])],
    combos: [
      {
        name: COMBO,
        targets: [
          { connection: 'bench-a', model: MODEL },
          { connection: 'bench-b', model: MODEL },
        ],
        ...(v.strategy ? { strategy: 'round-robin' } : {}),
      },
    ],
    ...(v.routes ? { routes: [{ match: '*', to: COMBO }] } : {}),
    ...(v.pool
      ? {
          pools: [
            {
              name: 'bench-pool',
              connections: ['bench-a', 'bench-b'],
              dimensions: [{ unit: 'requests', window: 'hourly', limit: POOL_LIMIT }],
              allocations: [
                { key: 'bench', weight: 50, policy: 'hard' },
                { key: 'bench-other', weight: 50, policy: 'hard' },
              ],
            },
          ],
        }
      : {}),
  };
}

function profileFlags(setup: LaunchSetup, name: string): string[] {
  return setup.profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${setup.profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
}

/** `node ARGS`, or `taskset -c PIN node ARGS` (taskset execs node, so the pid stays node's). */
function command(setup: LaunchSetup, args: string[]): { command?: string; args: string[] } {
  return setup.pin ? { command: 'taskset', args: ['-c', setup.pin, process.execPath, ...args] } : { args };
}

async function startLeeway(
  setup: LaunchSetup,
  name: 'leeway' | 'engines',
  config: Record<string, unknown>,
  profile: boolean,
): Promise<Started> {
  const dir = join(setup.work, `${name}-${seq++}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const port = await freePort();
  const args = [
    ...(profile ? profileFlags(setup, name) : []),
    ...setup.entryArgs,
    '--port',
    String(port),
    '--data-dir',
    join(dir, 'data'),
    '--config',
    file,
  ];
  const child = await spawnNode({ name, cwd: setup.root, ...command(setup, args), ready: /^Proxy:\s+(http:\/\/\S+)/ });
  return { child, answerMs: await timeToAnswer(child, child.readyValue, true) };
}

export function launchLeeway(setup: LaunchSetup, profile: boolean): Promise<Started> {
  return startLeeway(setup, 'leeway', baseConfig(setup.upstreamUrl), profile);
}

export async function launchFloor(setup: LaunchSetup, profile: boolean): Promise<Started> {
  const flags = profile ? profileFlags(setup, 'floor') : [];
  const child = await startFloor({
    port: await freePort(),
    upstream: setup.upstreamUrl,
    cwd: setup.root,
    nodeFlags: flags,
    pin: setup.pin,
  });
  return { child, answerMs: await timeToAnswer(child, child.readyValue, false) };
}

/**
 * Starts the every-engine-on Leeway, dropping `pools`, then `routes`, then `strategy` from the
 * config while this build refuses them; then checks by behaviour which engines really acted.
 */
export async function launchEngines(
  setup: LaunchSetup,
  profile: boolean,
): Promise<{ started: Started; status: EngineStatus }> {
  const notes: string[] = [];
  const variants: EngineVariant[] = [true, false].flatMap((pool) => [
    { routes: true, strategy: true, pool },
    { routes: false, strategy: true, pool },
    { routes: true, strategy: false, pool },
    { routes: false, strategy: false, pool },
  ]);
  let lastError: unknown = null;
  for (const v of variants) {
    try {
      const started = await startLeeway(setup, 'engines', enginesConfig(setup.upstreamUrl, v), profile);
      if (!v.pool) notes.push('quota pool: NOT AVAILABLE (config key refused); no quota pre-check or record');
      if (!v.routes) notes.push('routes: NOT AVAILABLE (config key refused); the bench asks for the combo by name');
      if (!v.strategy) notes.push('combo strategy: NOT AVAILABLE (config key refused)');
      const model = v.routes ? MODEL : COMBO;
      notes.push(...(await probeEngines(started.child.readyValue, model, v.routes, v.pool)));
      return { started, status: { model, notes } };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

async function ask(origin: string, model: string, session: string | null) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': '2023-06-01',
    'x-api-key': LOCAL_KEY,
  };
  if (session) headers['x-leeway-session'] = session;
  const res = await undiciRequest(`${origin}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'probe' }] }),
  });
  await res.body.dump();
  const one = (name: string) => {
    const v = res.headers[name];
    return typeof v === 'string' ? v : null;
  };
  return {
    status: res.statusCode,
    connection: one('x-leeway-connection'),
    pin: one('x-leeway-session-pin'),
    quota: one('x-leeway-quota'),
  };
}

/** What the engines visibly did: which connection served, whether a pin decided. */
async function probeEngines(origin: string, model: string, routes: boolean, pool: boolean): Promise<string[]> {
  const plain = [];
  for (let i = 0; i < 4; i++) plain.push(await ask(origin, model, null));
  const bad = plain.find((r) => r.status !== 200);
  if (bad) throw new Error(`engines probe: HTTP ${bad.status} for model ${model}`);
  const served = plain.map((r) => r.connection ?? '?');
  const pinned = [];
  for (let i = 0; i < 3; i++) pinned.push(await ask(origin, model, 'bench-probe-session'));
  const onePin = new Set(pinned.map((r) => r.connection)).size === 1;
  return [
    ...(routes ? [`routes: "*" → ${COMBO} accepted; ${model} served by ${served[0]}`] : []),
    `round-robin (no session): served by ${served.join(', ')}${new Set(served).size > 1 ? '' : ' — NOT ALTERNATING (strategy not in effect)'}`,
    `affinity (one session, 3 requests): ${pinned.map((r) => r.connection ?? '?').join(', ')}; ` +
      `x-leeway-session-pin ${pinned.some((r) => r.pin !== null) ? 'seen' : 'NOT seen (affinity not in effect)'}${onePin ? '' : ', NOT STICKY'}`,
    ...(pool
      ? [
          `quota pool (bench + bench-other, ${POOL_LIMIT} requests/hour over both connections): x-leeway-quota ` +
            (plain.some((r) => r.quota !== null)
              ? `${plain.find((r) => r.quota !== null)?.quota ?? ''} seen`
              : 'NOT seen (the pre-check is not wired in this build)'),
        ]
      : []),
  ];
}
