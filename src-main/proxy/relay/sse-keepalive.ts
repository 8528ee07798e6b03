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

/**
 * Every request gets one and almost none starts it: a class, so the per-request cost is one small
 * object (its methods live on the prototype; `stop` is bound only when a stream really opens).
 */
class SseKeepAlive implements KeepAlive {
  private timer: NodeJS.Timeout | null = null;
  private opened = false;
  /** Each periodic comment says again what the stream waits for (issue 21 §11). */
  private waitingFor = '';
  constructor(
    private readonly res: ServerResponse,
    /** Issue 23: Gemini CLI's SDK stalls on a comment line, so a Gemini client gets bare newlines. */
    private readonly bare: boolean,
  ) {}

  get committed(): boolean {
    return this.opened;
  }

  start(extraHeaders: Record<string, string>, waitingFor = 'the Claude low-priority lane'): void {
    const res = this.res;
    if (!this.opened) {
      this.opened = true;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        ...extraHeaders,
      });
      res.once('close', () => this.stop());
    }
    this.waitingFor = waitingFor;
    this.note(`leeway keep-alive (waiting for ${waitingFor})`);
    if (!this.timer) {
      this.timer = setInterval(() => {
        if (res.destroyed || res.writableEnded) return this.stop();
        res.write(this.bare ? '\n' : `: leeway keep-alive (waiting for ${this.waitingFor})\n\n`);
      }, KEEPALIVE_EVERY_MS);
      this.timer.unref();
    }
  }

  // SSE comments are ignored by every client parser, so they keep the socket busy and nothing else.
  note(text: string): void {
    const res = this.res;
    if (this.opened && !res.destroyed && !res.writableEnded) res.write(this.bare ? '\n' : `: ${text}\n\n`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export function createKeepAlive(res: ServerResponse, bare = false): KeepAlive {
  return new SseKeepAlive(res, bare);
}
