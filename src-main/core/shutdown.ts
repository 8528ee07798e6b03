import type { Server } from 'node:http';
import type { StorageGate } from '../data-dir/storage-gate';
import type { InFlightRequests } from '../proxy/stages/in-flight';

/**
 * Issue 21 §9: how long a signal-driven stop (Ctrl-C, SIGTERM) lets requests in flight finish
 * before it ends them with an error in their client's format. `--shutdown-grace <s>` /
 * `LEEWAY_SHUTDOWN_GRACE` change it; a stop without a grace (tests, a lost data dir) ends them at once.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/** After the grace: how long the requests told to end may take to write their last words before their sockets are cut. */
export const END_WRITE_BOUND_MS = 2_000;

/** True when `promise` settled within `ms`; the timer never keeps the process alive. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Drain {
  servers: readonly Server[];
  gates: readonly StorageGate[];
  inFlight: InFlightRequests;
  /** Resolves once every tracked request has settled (and logged its row). */
  settled(): Promise<void>;
  graceMs: number;
  log(line: string): void;
}

/**
 * Stops accepting (listeners closed, idle kept-alive sockets closed, a request arriving on a busy
 * one refused with 503 `shutdown`), lets the requests in flight finish for `graceMs`, then ends
 * the rest through their signals and gives them `END_WRITE_BOUND_MS` to write that end and settle.
 * Every request settles through its own path, so each one is logged once, truthfully.
 */
export async function drainRequests(d: Drain): Promise<void> {
  for (const gate of d.gates) gate.drain();
  for (const server of d.servers) {
    if (server.listening) server.close();
    server.closeIdleConnections();
  }
  const running = d.inFlight.size;
  if (running > 0 && d.graceMs > 0) {
    d.log(`Leeway: waiting up to ${Math.round(d.graceMs / 1000)} s for ${running} request(s) in flight`);
  }
  if (await within(d.settled(), d.graceMs)) return;
  const ended = d.inFlight.endAll();
  if (ended > 0) {
    const after = d.graceMs > 0 ? ` after the ${Math.round(d.graceMs / 1000)} s grace` : '';
    d.log(`Leeway: ended ${ended} request(s) still running${after} with a "shutdown" error`);
  }
  await within(d.settled(), END_WRITE_BOUND_MS);
}
