/** Counts a server's open TCP connections as the kernel sees them, so the check needs no hook inside the server. */
import { existsSync, readFileSync } from 'node:fs';

/** ESTABLISHED and CLOSE_WAIT: the server has not closed its end (FIN_WAIT*, LAST_ACK: it has). */
const OPEN_STATES = new Set(['01', '08']);
const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];

/** True where /proc/net/tcp exists (Linux); elsewhere the count is skipped. */
export function canCountSockets(): boolean {
  return existsSync(TABLES[0] ?? '');
}

/**
 * Server-side sockets on `port` that are still open: established, or closed by the client and not
 * yet by the server (CLOSE_WAIT). The listening socket and half-closed leftovers do not count.
 */
export function openServerSockets(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of TABLES) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      const state = fields[3];
      if (!local?.endsWith(`:${hexPort}`) || state === undefined || !OPEN_STATES.has(state)) continue;
      count += 1;
    }
  }
  return count;
}
