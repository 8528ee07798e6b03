import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CoreEvent } from '../../src-shared/contract/events';
import type { EventBus } from '../kernel/event-bus';
import { BASE_HEADERS } from './http-replies';

/** Proxies and browsers drop idle streams; a comment every 15 s keeps ours open. */
export const KEEP_ALIVE_MS = 15_000;

/** A client that lets this much pile up is not reading; it reconnects and re-snapshots instead. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The open `GET /api/events` streams: one bus subscription and one timer each. */
export interface EventStreams {
  open(req: IncomingMessage, res: ServerResponse): void;
  closeAll(): void;
  count(): number;
}

/** Encodes one core event as a server-sent event; JSON.stringify never emits a newline, so one data line suffices. */
export function formatSseEvent(event: CoreEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.payload)}\n\n`;
}

export function createEventStreams(events: EventBus, keepAliveMs = KEEP_ALIVE_MS): EventStreams {
  const closers = new Set<() => void>();

  return {
    open(req, res) {
      res.writeHead(200, {
        ...BASE_HEADERS,
        'cache-control': 'no-cache, no-store, no-transform',
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // The retry hint and an early byte make EventSource fire `open` without waiting for the first event.
      res.write('retry: 2000\n: connected\n\n');

      let closed = false;
      const close = (): void => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(timer);
        closers.delete(close);
        if (!res.writableEnded) res.end();
      };
      const write = (chunk: string): void => {
        if (closed) return;
        res.write(chunk);
        if (res.writableLength > MAX_BUFFERED_BYTES) close();
      };

      const unsubscribe = events.subscribe((event) => write(formatSseEvent(event)));
      const timer = setInterval(() => write(': keep-alive\n\n'), keepAliveMs);
      // An idle stream must never keep the process alive at shutdown.
      timer.unref();
      closers.add(close);
      req.on('close', close);
      res.on('close', close);
      res.on('error', close);
    },
    closeAll() {
      for (const close of [...closers]) close();
    },
    count: () => closers.size,
  };
}
