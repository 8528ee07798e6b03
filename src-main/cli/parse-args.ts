import { isLoopbackHost } from '../kernel/loopback';
import path from 'node:path';
import { DEFAULT_LOG_LEVEL, isLogLevel, LOG_LEVELS, type LogLevel } from '../observability/log-level';

/** Default proxy port (PROD-2). */
export const DEFAULT_PORT = 7431;
/** Default bind address: loopback only unless the user opts in with `--allow-remote`. */
export const DEFAULT_HOST = '127.0.0.1';
/** Folder name under the platform's app-data directory; equals Electron's userData for productName "Leeway". */
export const APP_DIR_NAME = 'Leeway';

/** Everything the command line and the environment can say about how to start Leeway. */
export interface CliOptions {
  headless: boolean;
  help: boolean;
  host: string;
  port: number;
  /** Undefined means the core picks its default. */
  adminPort?: number;
  allowRemote: boolean;
  dataDir: string;
  configFile?: string;
  adminToken?: string;
  /** `--log-level` / `LEEWAY_LOG_LEVEL`: the terminal's and the log file's level (default info). */
  logLevel: LogLevel;
  /** `--shutdown-grace` / `LEEWAY_SHUTDOWN_GRACE` (seconds): how long Ctrl-C lets requests in flight finish (issue 21 §9). */
  shutdownGraceMs: number;
  /** Things the user asked for that work but deserve a line on stderr (e.g. a non-loopback bind). */
  warnings: string[];
}

export type ParseArgsResult = { ok: true; value: CliOptions } | { ok: false; errors: string[] };

type Env = Record<string, string | undefined>;

const BOOLEAN_FLAGS = ['--headless', '--allow-remote', '--help'] as const;
const VALUE_FLAGS = [
  '--port',
  '--host',
  '--data-dir',
  '--config',
  '--admin-port',
  '--log-level',
  '--shutdown-grace',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

function isValueFlag(name: string): name is ValueFlag {
  return (VALUE_FLAGS as readonly string[]).includes(name);
}

function isBooleanFlag(name: string): name is (typeof BOOLEAN_FLAGS)[number] {
  return (BOOLEAN_FLAGS as readonly string[]).includes(name);
}

/** Default of `--shutdown-grace`, in seconds (core-shutdown.ts SHUTDOWN_GRACE_MS). */
export const DEFAULT_SHUTDOWN_GRACE_S = 10;
/** A grace longer than this would outlast what a service manager waits after its SIGTERM. */
const MAX_SHUTDOWN_GRACE_S = 600;

/** Parses seconds in 0..600 (decimals allowed); undefined for anything else. */
function parseSeconds(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return n <= MAX_SHUTDOWN_GRACE_S ? n : undefined;
}

/** Parses a port in 0..65535 (0 = let the OS pick); returns undefined for anything else. */
function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return n >= 0 && n <= 65535 ? n : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * Parses Leeway's command line and `LEEWAY_*` environment into start options.
 * Pure: the same parser serves the Electron shell and the headless entry; flags win over env.
 */
export function parseArgs(argv: string[], env: Env, platformDefaults: { dataDir: string }): ParseArgsResult {
  const errors: string[] = [];
  const flags = new Map<ValueFlag, string>();
  const switches = new Set<string>();

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') continue;
    if (arg === '-h') {
      switches.add('--help');
      continue;
    }
    if (!arg.startsWith('--')) {
      errors.push(`Unexpected argument "${arg}" (see --help).`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    if (isBooleanFlag(name)) {
      if (inline !== undefined) errors.push(`${name} takes no value.`);
      else switches.add(name);
    } else if (isValueFlag(name)) {
      let value = inline;
      if (value === undefined) {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith('--')) {
          value = next;
          i++;
        }
      }
      if (value === undefined || value === '') errors.push(`${name} needs a value.`);
      else flags.set(name, value);
    } else {
      errors.push(`Unknown option "${name}" (see --help).`);
    }
  }

  const allowRemote = switches.has('--allow-remote');
  const base: CliOptions = {
    headless: switches.has('--headless'),
    help: switches.has('--help'),
    host: DEFAULT_HOST,
    port: DEFAULT_PORT,
    allowRemote,
    dataDir: platformDefaults.dataDir,
    logLevel: DEFAULT_LOG_LEVEL,
    shutdownGraceMs: DEFAULT_SHUTDOWN_GRACE_S * 1000,
    warnings: [],
  };
  // Help wins over every other problem so `--help` always works.
  if (base.help) return { ok: true, value: base };

  const portFrom = (flag: ValueFlag, envName: string): number | undefined => {
    const fromFlag = flags.get(flag);
    const raw = fromFlag ?? nonEmpty(env[envName]);
    if (raw === undefined) return undefined;
    const port = parsePort(raw);
    if (port === undefined) {
      const source = fromFlag !== undefined ? flag : envName;
      errors.push(`${source} must be a port number from 0 to 65535 (0 picks a free port), got "${raw}".`);
    }
    return port;
  };

  const port = portFrom('--port', 'LEEWAY_PORT');
  const levelFlag = flags.get('--log-level');
  const levelText = (levelFlag ?? nonEmpty(env.LEEWAY_LOG_LEVEL))?.trim().toLowerCase();
  if (levelText !== undefined && !isLogLevel(levelText)) {
    const source = levelFlag !== undefined ? '--log-level' : 'LEEWAY_LOG_LEVEL';
    errors.push(`${source} must be one of ${LOG_LEVELS.join(', ')}, got "${levelText}".`);
  }
  const adminPort = portFrom('--admin-port', 'LEEWAY_ADMIN_PORT');
  const graceFlag = flags.get('--shutdown-grace');
  const graceText = graceFlag ?? nonEmpty(env.LEEWAY_SHUTDOWN_GRACE);
  const grace = graceText === undefined ? DEFAULT_SHUTDOWN_GRACE_S : parseSeconds(graceText);
  if (grace === undefined) {
    const source = graceFlag !== undefined ? '--shutdown-grace' : 'LEEWAY_SHUTDOWN_GRACE';
    errors.push(`${source} must be a number of seconds from 0 to ${MAX_SHUTDOWN_GRACE_S}, got "${graceText ?? ''}".`);
  }
  const host = (flags.get('--host') ?? DEFAULT_HOST).trim();
  const warnings: string[] = [];
  if (host === '') {
    errors.push('--host needs a value.');
  } else if (!isLoopbackHost(host)) {
    if (allowRemote) {
      warnings.push(
        `Listening on ${host}: other machines on the network can reach Leeway. Keep local API keys and the admin token secret.`,
      );
    } else {
      errors.push(
        `--host ${host} is not a loopback address; add --allow-remote to accept connections from other machines.`,
      );
    }
  }

  if (errors.length > 0) return { ok: false, errors };

  const value: CliOptions = {
    ...base,
    host,
    port: port ?? DEFAULT_PORT,
    dataDir: flags.get('--data-dir') ?? nonEmpty(env.LEEWAY_DATA_DIR) ?? platformDefaults.dataDir,
    logLevel: levelText !== undefined && isLogLevel(levelText) ? levelText : DEFAULT_LOG_LEVEL,
    shutdownGraceMs: Math.round((grace ?? DEFAULT_SHUTDOWN_GRACE_S) * 1000),
    warnings,
  };
  if (adminPort !== undefined) value.adminPort = adminPort;
  const configFile = flags.get('--config') ?? nonEmpty(env.LEEWAY_CONFIG);
  if (configFile !== undefined) value.configFile = configFile;
  const adminToken = nonEmpty(env.LEEWAY_ADMIN_TOKEN);
  if (adminToken !== undefined) value.adminToken = adminToken;
  return { ok: true, value };
}

/**
 * Where Leeway keeps its data when no `--data-dir` is given: the same folder Electron's
 * `app.getPath('userData')` resolves to for the app name "Leeway", so both modes share one database.
 */
export function defaultDataDir(platform: string, env: Env, homedir: string): string {
  if (platform === 'win32') {
    const appData = nonEmpty(env.APPDATA) ?? path.win32.join(homedir, 'AppData', 'Roaming');
    return path.win32.join(appData, APP_DIR_NAME);
  }
  if (platform === 'darwin') return path.posix.join(homedir, 'Library', 'Application Support', APP_DIR_NAME);
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  const configHome = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homedir, '.config');
  return path.posix.join(configHome, APP_DIR_NAME);
}

/** The `--help` text. */
export function usage(): string {
  return [
    'Usage: leeway [options]',
    '',
    'Options:',
    '  --headless            Run without Electron: proxy + web dashboard in plain Node',
    `  --port N              Proxy port, 0 picks a free one (default ${DEFAULT_PORT}; env LEEWAY_PORT)`,
    `  --host H              Bind address (default ${DEFAULT_HOST}); non-loopback needs --allow-remote`,
    '  --allow-remote        Allow binding a non-loopback address (prints a warning)',
    '  --data-dir D          Data directory (env LEEWAY_DATA_DIR; default: the app data folder)',
    '  --config FILE         Config file (env LEEWAY_CONFIG)',
    '  --admin-port N        Admin API / dashboard port (env LEEWAY_ADMIN_PORT)',
    `  --log-level L         ${LOG_LEVELS.join('|')} (default ${DEFAULT_LOG_LEVEL}; env LEEWAY_LOG_LEVEL)`,
    `  --shutdown-grace S    Seconds Ctrl-C lets requests in flight finish (default ${DEFAULT_SHUTDOWN_GRACE_S}; env LEEWAY_SHUTDOWN_GRACE)`,
    '  -h, --help            Show this help',
    '',
    'Environment:',
    '  LEEWAY_ADMIN_TOKEN  Token the admin API requires',
    '',
    'Flags win over environment variables. Both "--port 8000" and "--port=8000" work.',
  ].join('\n');
}
