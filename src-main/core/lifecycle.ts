import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Settings } from '../../src-shared/domain/settings';
import type { Storage } from '../db/storage';
import type { QuotaStore } from '../quota/quota-ports';

const FLUSH_EVERY_MS = 1_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const QUOTA_GC_EVERY_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * Model requests still settling after their sockets closed: `track` wraps a handler so `settled()`
 * can wait for them, and stop() writes their log rows before the database closes.
 */
export function createSettlingTracker() {
  const settling = new Set<Promise<void>>();
  return {
    track:
      (handler: Handler) =>
      (req: IncomingMessage, res: ServerResponse): void => {
        const pending = handler(req, res);
        if (!pending) return;
        settling.add(pending);
        // then(f, f) rather than finally(): finally chains two more promises and microtasks per request.
        const release = (): void => void settling.delete(pending);
        pending.then(release, release);
      },
    settled: async (): Promise<void> => {
      await Promise.allSettled([...settling]);
    },
  };
}

/**
 * The storage timers: the request log and session pins reach SQLite once a second (batched, never
 * per request), the log is pruned hourly. A write the disk refuses is reported to the storage's
 * health (issue 21 §16: degraded, the rows kept) and tried again on the next tick; the tick that
 * writes everything kept without a fault, plus a probe, is what declares the disk back.
 */
export function startStorageTimers(
  s: Storage,
  settings: () => Settings,
  now: () => number,
  log: (line: string) => void,
): NodeJS.Timeout[] {
  const guard = (what: string, task: () => void): void => {
    try {
      task();
    } catch (error) {
      if (!s.health.report(error))
        log(`Leeway: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const flush = (): void => {
    const faultsBefore = s.health.faults();
    guard('writing the request log', () => s.requestLog.flush());
    // Session pins ride the same timer: expired ones dropped, changes written in one transaction.
    guard('writing session pins', () => {
      s.affinity.prune(now());
      s.affinity.flush();
    });
    guard('the storage check', () => s.health.settle(faultsBefore, () => s.requestLog.probe(), s.requestLog.held()));
  };
  const prune = () =>
    guard('pruning the request log', () => {
      const cfg = settings();
      s.requestLog.prune(now(), cfg.requestLogMaxRows, cfg.requestLogMaxAgeDays);
    });
  prune();
  return [setInterval(flush, FLUSH_EVERY_MS).unref(), setInterval(prune, PRUNE_EVERY_MS).unref()];
}

/**
 * QENV-3: hourly, counter buckets last written longer ago than the retention are deleted. A failure
 * is logged and retried on the next tick; the timer never keeps the process alive.
 */
export function startQuotaGc(
  store: Pick<QuotaStore, 'gc'>,
  retentionDays: () => number,
  now: () => number,
  log: (line: string) => void,
): NodeJS.Timeout {
  const gc = () => {
    store.gc(retentionDays() * DAY_MS, now()).catch((error: unknown) => {
      log(`[quota:factory] retention GC failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  return setInterval(gc, QUOTA_GC_EVERY_MS).unref();
}

/**
 * Closes every server, cutting its open connections so stop() never hangs; by then the drain
 * (core-shutdown.ts) has ended every model request, so what is cut is idle or not Leeway's to finish.
 */
export async function closeServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          // The drain may have closed the listener already: its sockets are cut all the same.
          server.closeAllConnections();
          if (!server.listening) return resolve();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}
