import type { ServerResponse } from 'node:http';

const KEEPALIVE_EVERY_MS = 15_000;

/**
 * An SSE response opened early so a client waiting out a long wait does not give up: the Claude
 * low-priority lane's and a held request's (CONC-7) share it, so a request is committed once.
 */
export interface KeepAlive {
  /** Sends 200 + event-stream headers (once), a comment now (naming the wait) and one every 15 s until stop(). */
  start(extraHeaders: Record<string, string>, waitingFor?: string): void;
  /** Writes one SSE comment on an opened stream (nothing before start()). */
  note(text: string): void;
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
  // SSE comments are ignored by every client parser, so they keep the socket busy and nothing else.
  const comment = (text: string) => {
    if (committed && !res.destroyed && !res.writableEnded) res.write(`: ${text}\n\n`);
  };
  return {
    start(extraHeaders, waitingFor = 'the Claude low-priority lane') {
      if (!committed) {
        committed = true;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          ...extraHeaders,
        });
        res.once('close', stop);
      }
      comment(`headroom keep-alive (waiting for ${waitingFor})`);
      if (!timer) {
        timer = setInterval(() => {
          if (res.destroyed || res.writableEnded) return stop();
          res.write(': headroom keep-alive\n\n');
        }, KEEPALIVE_EVERY_MS);
        timer.unref();
      }
    },
    note: comment,
    stop,
    get committed() {
      return committed;
    },
  };
}
