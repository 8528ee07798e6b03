/** The suite's command line: `npm run conformance -- --url … --key …` (and `leeway conformance …`). */

export interface SuiteOptions {
  /** The gateway's origin (no /v1); absent with `--self`. */
  url?: string;
  key?: string;
  /** With a Leeway at `url`: configure it through its admin API (and undo it afterwards). */
  adminToken?: string;
  /** The admin API's origin when it is not the proxy's (Leeway's --admin-port). */
  adminUrl?: string;
  /** Start a Leeway of this checkout in-process and test that. */
  self: boolean;
  /** A fixed port for the suite's upstream, so another gateway's config can point at it once. */
  upstreamPort?: number;
  models: { anthropic: string; openai: string };
  /** Only these check ids. */
  only?: string[];
  /** Per CLI run and per SDK call. */
  timeoutMs: number;
  json: boolean;
  help: boolean;
}

export type ParsedOptions = { ok: true; value: SuiteOptions } | { ok: false; error: string };

const VALUE_FLAGS = [
  '--url',
  '--key',
  '--admin-token',
  '--admin-url',
  '--upstream-port',
  '--anthropic-model',
  '--openai-model',
  '--only',
  '--timeout',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const isValueFlag = (flag: string): flag is ValueFlag => (VALUE_FLAGS as readonly string[]).includes(flag);

function origin(value: string, flag: string): string | Error {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return new Error(`${flag} must be an http(s) URL`);
    return value.replace(/\/+$/, '').replace(/\/v1$/, '');
  } catch {
    return new Error(`${flag} is not a URL: ${value}`);
  }
}

export function parseOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ParsedOptions {
  const values: Partial<Record<ValueFlag, string>> = {};
  const options: SuiteOptions = {
    self: false,
    json: false,
    help: false,
    timeoutMs: 60_000,
    models: { anthropic: 'claude-conformance', openai: 'gpt-conformance' },
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag = '', inline] = (argv[i] ?? '').split(/=(.*)/s, 2);
    if (flag === '--self') options.self = true;
    else if (flag === '--json') options.json = true;
    else if (flag === '--help' || flag === '-h') options.help = true;
    else if (isValueFlag(flag)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return { ok: false, error: `${flag} needs a value` };
      values[flag] = value;
    } else return { ok: false, error: `unknown argument ${argv[i]} (see --help)` };
  }
  if (options.help) return { ok: true, value: options };
  const key = values['--key'] ?? env.LEEWAY_KEY;
  const adminToken = values['--admin-token'] ?? env.LEEWAY_ADMIN_TOKEN;
  if (values['--url'] !== undefined) {
    const url = origin(values['--url'], '--url');
    if (url instanceof Error) return { ok: false, error: url.message };
    options.url = url;
  }
  if (values['--admin-url'] !== undefined) {
    const url = origin(values['--admin-url'], '--admin-url');
    if (url instanceof Error) return { ok: false, error: url.message };
    options.adminUrl = url;
  }
  if (options.self && options.url !== undefined)
    return { ok: false, error: '--self starts its own Leeway: drop --url' };
  if (!options.self && options.url === undefined) return { ok: false, error: 'give --url (and --key), or --self' };
  if (!options.self && (key === undefined || key === '')) return { ok: false, error: '--key is required with --url' };
  if (key) options.key = key;
  if (adminToken && !options.self) options.adminToken = adminToken;
  if (values['--upstream-port'] !== undefined) {
    const port = Number(values['--upstream-port']);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      return { ok: false, error: '--upstream-port must be 0–65535' };
    options.upstreamPort = port;
  }
  if (values['--timeout'] !== undefined) {
    const seconds = Number(values['--timeout']);
    if (!(seconds > 0 && seconds <= 600)) return { ok: false, error: '--timeout is in seconds, 1–600' };
    options.timeoutMs = Math.round(seconds * 1000);
  }
  options.models = {
    anthropic: values['--anthropic-model'] ?? options.models.anthropic,
    openai: values['--openai-model'] ?? options.models.openai,
  };
  if (values['--only'] !== undefined)
    options.only = values['--only']
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
  return { ok: true, value: options };
}

export const USAGE = `Usage: npm run conformance -- (--url URL --key KEY [--admin-token T] | --self) [options]
       leeway conformance [the same; with none of --url, --self: the Leeway running on the data dir]

Drives the real clients (Claude Code, codex, the Anthropic and OpenAI SDKs) through a gateway to
the suite's own fake upstream, and prints one row per check: pass, fail or n-a, with evidence.

  --url URL              The gateway, as ANTHROPIC_BASE_URL takes it (http://127.0.0.1:7431)
  --key KEY              The key clients send it (env LEEWAY_KEY)
  --admin-token T        The gateway is a Leeway: add the suite's connections through its admin
                         API, remove them afterwards (env LEEWAY_ADMIN_TOKEN)
  --admin-url URL        Leeway's admin API when it has its own port (--admin-port)
  --self                 Start a Leeway of this checkout in-process and test it
  --upstream-port N      Fixed port for the suite's upstream (another gateway's config points at it)
  --anthropic-model M    Model name Anthropic clients send (default claude-conformance)
  --openai-model M       Model name OpenAI clients send (default gpt-conformance)
  --only ID,ID           Only these checks (ids: --json output)
  --timeout S            Per CLI run and SDK call (default 60)
  --json                 Rows as JSON instead of the table
  -h, --help             This help

Exit code: 0 when no check failed, 1 when one did, 2 for a usage error.`;
