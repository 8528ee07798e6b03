import type { ProxyInfo } from '../../src-shared/contract/methods';
import type { Database } from '../db/open';
import type { LogLevel } from '../observability/log-level';
import type { TerminalTarget } from '../observability/logger';
import type { SwitchingQuotaStore } from '../quota/store/store-factory';
import type { SecretBox } from '../secrets/secret-box';
import type { Env } from './env';

export interface CoreOptions {
  dataDir: string;
  host: string;
  port: number;
  /** A separate port for the dashboard and admin API; by default they share the proxy's. */
  adminPort?: number;
  allowRemote: boolean;
  configFile?: string;
  adminToken?: string;
  mode: 'electron' | 'headless';
  /** The environment, read once by the entry (core/env.ts); nothing below the entry reads the environment itself. */
  env: Env;
  /** Built renderer to serve as the web dashboard; null when there is none. */
  rendererDir?: string | null;
  /** Electron's safeStorage in the app; a 0600 key file headless. */
  secretBox?: SecretBox;
  /** Receives every warning line verbatim (tests, embedders); given, the terminal stays quiet unless `logTerminal` says otherwise. */
  log?: (line: string) => void;
  /** `--log-level` / `LEEWAY_LOG_LEVEL` (default info). */
  logLevel?: LogLevel;
  /** Where the human-readable log lines go: stdout by default, nowhere when `log` is given. */
  logTerminal?: TerminalTarget;
  now?: () => number;
  /** Issue 13 §5: ask upstreams for their model lists on start, hourly and on changes (default: the environment's, on; tests turn it off). */
  modelDiscovery?: boolean;
  /** Tests: wraps the quota counter store (a store that throws or hangs, QPIPE-3/5). */
  wrapQuotaStore?: (store: SwitchingQuotaStore) => SwitchingQuotaStore;
  /** Tests: the opened database, to make SQLite itself fail (PRAGMA query_only, max_page_count; issue 21 §16). */
  onDatabase?: (db: Database) => void;
}

/** What a start that succeeded gives: the addresses, and the running instance's `app.info`. */
export interface StartedInfo {
  proxyUrl: string;
  dashboardUrl: string;
  adminToken: string;
  /** The running instance as `app.info` answers it (paused and storage read now). */
  info(): ProxyInfo;
}
