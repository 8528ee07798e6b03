import { join } from 'node:path';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import type { EventBus } from '../kernel/event-bus';
import type { ConnectionsRepo } from '../db/connections-repo';
import type { Catalog } from '../kernel/catalog';
import { createLineRedactor } from './line-redactor';
import type { LogLevel } from './log-level';
import { createLeewayLogger, type TerminalTarget } from './logger';
import { createMetrics } from './metrics';
import { requestJson } from './request-json';
import { requestLine } from './request-line';
import { createStateLines } from './state-lines';
import type { ScrapeSources } from './state-metrics';

export interface ObservabilityOptions {
  level?: LogLevel;
  terminal: TerminalTarget;
  /** Also receives every line of the core's line-based `log`, verbatim (tests and embedders read them). */
  tap?: (line: string) => void;
  events: EventBus;
  now: () => number;
}

/** The running engines the logs and metrics read: attached once a start built them. */
export interface ObservedParts {
  /** For redaction (its secrets) and metric labels; stays readable after a stop or a lost data dir. */
  catalog: () => Catalog;
  scrape: ScrapeSources;
}

const NOTHING_SCRAPED: ScrapeSources = {
  snapshot: () => null,
  quota: () => Promise.resolve([]),
  queues: () => [],
};

/** Folder of the log files inside the data directory. */
export const LOGS_DIR = 'logs';

/**
 * Logs and metrics as the composition root wires them (issue 13 §1–2): one logger, the state-change
 * lines from core events, and a wrapper for `ctx.record` that turns each activity entry into its
 * terminal/file line and its metric counts. Nothing here is awaited by a request.
 */
export function createObservability(options: ObservabilityOptions) {
  // The logger lives as long as the core (lines before a start, after a stop); the engines come and go.
  let parts: ObservedParts | null = null;
  const catalog = (): Catalog | null => parts?.catalog() ?? null;
  const scrape: ScrapeSources = {
    snapshot: (at) => (parts?.scrape ?? NOTHING_SCRAPED).snapshot(at),
    quota: (at) => (parts?.scrape ?? NOTHING_SCRAPED).quota(at),
    queues: (at) => (parts?.scrape ?? NOTHING_SCRAPED).queues(at),
  };
  const redactor = createLineRedactor(catalog);
  const sinks = createLeewayLogger({
    terminal: options.terminal,
    redact: redactor.redact,
    now: options.now,
    ...(options.level ? { level: options.level } : {}),
  });
  const logger = sinks.logger;
  // Only asked whether info is on: the request line itself is serialised by requestJson.
  const requests = logger.child({ event: 'request' });
  const states = createStateLines(logger, options.now);
  const metrics = createMetrics(catalog, scrape, options.now);
  const nameOf = (id: string): string => catalog()?.connections.find((c) => c.view.id === id)?.view.name ?? id;
  options.events.subscribe((event) => {
    if (event.type === 'cooldowns.changed') states.snapshot(event.payload.snapshot);
  });

  return {
    logger,
    /** A start built the engines: the logs redact the catalog's secrets, the metrics scrape them. */
    attach(next: ObservedParts): void {
      parts = next;
    },
    /** The core's line-based log (quota, proxy, admin warnings): each line is a warning. */
    log(line: string): void {
      options.tap?.(line);
      logger.warn(line);
    },
    /** A line worth seeing that is no warning (a valid config's summary, issue 21 §17): info level. */
    info(line: string): void {
      options.tap?.(line);
      logger.info(line);
    },
    /** Wraps `ctx.record`: the activity row first, then its line, its metrics and any quota-hold change. */
    record(inner: (entry: NewRequestLogEntry) => void): (entry: NewRequestLogEntry) => void {
      return (entry) => {
        inner(entry);
        metrics.observe(entry);
        if (requests.isLevelEnabled('info')) sinks.writeLine(requestJson(entry, requestLine(entry), options.now()));
        states.request(entry);
      };
    },
    /** Once storage is open: the JSON file in `<dataDir>/logs/`, and what is cooling now as the baseline. */
    open(dataDir: string, snapshot: CooldownSnapshot): void {
      sinks.attachFile(join(dataDir, LOGS_DIR));
      states.baseline(snapshot);
    },
    /** Redacts a secret the catalog does not hold (config-file keys, the admin token). */
    secret: (value: string): void => redactor.add(value),
    /** Remembers every local key a request presented successfully, so no line can ever quote it. */
    rememberKeys(verify: (plainKey: string) => LocalKeyView | null): (plainKey: string) => LocalKeyView | null {
      return (plainKey) => {
        const key = verify(plainKey);
        if (key) redactor.add(plainKey);
        return key;
      };
    },
    /** The repository Claude's token refresh writes through, telling each stored refresh. */
    tellTokenRefresh(repo: ConnectionsRepo): ConnectionsRepo {
      return {
        ...repo,
        setSecret(id, secret, at) {
          const saved = repo.setSecret(id, secret, at);
          if (saved && secret.type === 'oauth') {
            states.tokenRefreshed(nameOf(id), secret.expiresAt);
          }
          return saved;
        },
      };
    },
    metrics: () => metrics.render(),
    /** Stops writing the file (the data directory is gone). */
    closeFile: (): Promise<void> => sinks.detachFile(),
    /** Writes out everything logged so far (stop). */
    flush: (): Promise<void> => sinks.flush(),
  };
}

export type Observability = ReturnType<typeof createObservability>;
