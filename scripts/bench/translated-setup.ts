/**
 * The processes of the translated rows: the fake Anthropic upstream (upstream-child), the fake
 * OpenAI upstream (upstream-openai-child) and ONE Leeway whose connections are picked by model:
 * an `anthropic` connection, an `openai-compatible` one (Chat Completions; Responses translated) and
 * an `openai-compatible` one marked `responsesApi: true` (Responses served natively), so every
 * client format has a pass-through and a translated path on the same proxy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as undiciRequest } from 'undici';
import { spawnNode, type Child } from './children';
import { freePort, timeToAnswer } from './launch';
import type { Lane } from './translated-load';
import { LOCAL_KEY, MODEL, UPSTREAM_KEY } from './shared';

/** Chat Completions connection's model: an Anthropic client asking for it is translated. */
export const OPENAI_MODEL = 'gpt-4o-mini';
/** The Responses-native connection's model: the Responses pass-through. */
export const RESPONSES_MODEL = 'gpt-4o';
/** Which connection serves each model (the probe checks Leeway agrees). */
export const CONNECTION_OF: Record<string, string> = {
  [MODEL]: 'bench-anthropic',
  [OPENAI_MODEL]: 'bench-openai',
  [RESPONSES_MODEL]: 'bench-openai-responses',
};
const OPENAI_KEY = 'sk-bench-openai-upstream-0000';

export interface TranslatedSetup {
  root: string;
  /** A scratch directory for Leeway's config and data. */
  work: string;
  /** Leeway's entry (node args before --port). */
  entryArgs: string[];
  /** CPU list for `taskset -c` (Leeway only), or null. */
  pin: string | null;
}

export interface TranslatedProcesses {
  anthropic: Child;
  openai: Child;
  leeway: Child;
  all: Child[];
}

function config(anthropicUrl: string, openaiUrl: string): Record<string, unknown> {
  const openai = (name: string, model: string, native: boolean) => ({
    name,
    kind: 'openai-compatible',
    baseUrl: `${openaiUrl}/v1`,
    apiKey: OPENAI_KEY,
    models: [model],
    responsesApi: native,
  });
  return {
    connections: [
      { name: CONNECTION_OF[MODEL], kind: 'anthropic', baseUrl: anthropicUrl, apiKey: UPSTREAM_KEY, models: [MODEL] },
      openai(CONNECTION_OF[OPENAI_MODEL] ?? '', OPENAI_MODEL, false),
      openai(CONNECTION_OF[RESPONSES_MODEL] ?? '', RESPONSES_MODEL, true),
    ],
    keys: [{ name: 'bench', key: LOCAL_KEY }],
  };
}

/** Starts both upstreams, then Leeway; the caller stops `all` (also when this throws, via stopAll). */
export async function startTranslated(setup: TranslatedSetup): Promise<TranslatedProcesses> {
  const upstream = (name: string, file: string) =>
    spawnNode({
      name,
      cwd: setup.root,
      args: ['--import', 'tsx', join(setup.root, 'scripts/bench', file)],
      ready: /^READY (\S+)/,
    });
  const [anthropic, openai] = await Promise.all([
    upstream('upstream-anthropic', 'upstream-child.ts'),
    upstream('upstream-openai', 'upstream-openai-child.ts'),
  ]);
  const dir = join(setup.work, 'translated');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config(anthropic.readyValue, openai.readyValue)));
  const args = [
    ...setup.entryArgs,
    '--port',
    String(await freePort()),
    '--data-dir',
    join(dir, 'data'),
    '--config',
    file,
  ];
  // taskset execs node, so the pid stays node's and /proc reads the proxy.
  const how = setup.pin ? { command: 'taskset', args: ['-c', setup.pin, process.execPath, ...args] } : { args };
  const leeway = await spawnNode({
    name: 'leeway-translated',
    cwd: setup.root,
    ...how,
    ready: /^Proxy:\s+(http:\/\/\S+)/,
  });
  await timeToAnswer(leeway, leeway.readyValue, true);
  return { anthropic, openai, leeway, all: [leeway, anthropic, openai] };
}

/**
 * One request per lane on a fresh connection: it must be a 200 from the connection its model names,
 * translated exactly when `translated` says so. Returns what it saw, for the report.
 */
export async function probeLane(origin: string, lane: Lane, translated: boolean): Promise<string> {
  const res = await undiciRequest(`${origin}${lane.path}`, { method: 'POST', headers: lane.headers, body: lane.body });
  const text = await res.body.text();
  const header = (name: string) => {
    const v = res.headers[name];
    return typeof v === 'string' ? v : null;
  };
  const what = `${lane.client} client, ${lane.shape}, model ${lane.model}`;
  if (res.statusCode !== 200)
    throw new Error(`translated rows: ${what}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  const connection = header('x-leeway-connection');
  const expected = CONNECTION_OF[lane.model];
  if (connection !== null && connection !== expected)
    throw new Error(`translated rows: ${what} was served by ${connection}, not ${expected}`);
  const mark = header('x-leeway-translated');
  if (!translated && mark !== null) throw new Error(`translated rows: ${what} should pass through, got ${mark}`);
  const how = translated ? (mark ?? 'x-leeway-translated NOT seen') : 'pass-through';
  return `${lane.model} → ${connection ?? '(no x-leeway-connection)'} (${how})`;
}
