import type { ServerResponse } from 'node:http';

const KEEPALIVE_EVERY_MS = 15_000;

/** An SSE response opened early so a client waiting out a long upstream wait does not give up. */
export interface KeepAlive {
  /** Sends 200 + event-stream headers (once) and a comment every 15 s until stop(). */
  start(extraHeaders: Record<string, string>): void;
  stop(): void;
  readonly committed: boolean;
}

export function createKeepAlive(res: ServerResponse): KeepAlive {
  let timer: NodeJS.Timeout | null = null;
  let committed = false;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    start(extraHeaders) {
      if (!committed) {
        committed = true;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          ...extraHeaders,
        });
      }
      // SSE comments are ignored by every client parser, so they keep the socket busy and nothing else.
      res.write(': headroom keep-alive (waiting for the Claude low-priority lane)\n\n');
      if (!timer) {
        timer = setInterval(() => {
          if (res.destroyed || res.writableEnded) return stop();
          res.write(': headroom keep-alive\n\n');
        }, KEEPALIVE_EVERY_MS);
        timer.unref();
      }
      res.once('close', stop);
    },
    stop,
    get committed() {
      return committed;
    },
  };
}
