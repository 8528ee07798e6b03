import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { TranslationFailure } from '../../translate/translation-failure';
import type { StreamCut } from '../wire/chunk-observer';
import { isShuttingDown } from '../stages/in-flight';
import type { RelayInput, RelayOutcome } from './relay';
import type { RelayObservers } from './relay-observers';
import { LOST, streamErrorFrame, tooSlow, UNTERMINATED } from './stream-error';

function ignore(): void {}

/**
 * An answer still being read when the client's response began: the held reads first, then every
 * upstream read as it comes, with backpressure both ways (the upstream is paused while the
 * client's socket is full). Settles once, on whichever ends it first: the body's end or error, the
 * client leaving, or the watchdog's cut.
 */
export class StreamRelay {
  private readonly body: Readable;
  private readonly trailer: string;
  private settled = false;
  private resolve: (outcome: RelayOutcome) => void = ignore;

  constructor(
    private readonly res: ServerResponse,
    private readonly input: RelayInput,
    private readonly observers: RelayObservers,
    private readonly ttfbMs: number | null,
    private readonly isSse: boolean,
  ) {
    this.body = input.upstream.body;
    this.trailer = input.trailer ?? '';
  }

  run(): Promise<RelayOutcome> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      const { body, res, observers } = this;
      res.on('close', this.onClose);
      for (const chunk of this.input.start.chunks) this.send(observers.chain.onChunk(chunk, observers.clientSide));
      body.on('data', this.onData);
      body.on('end', this.onEnd);
      body.on('error', this.onError);
      // A body whose last bytes came with the held ones may have ended (or failed) before these listeners.
      if (body.readableEnded) this.onEnd();
      else if (body.errored) this.onError(body.errored);
      // Held at the commit; a full client socket resumes it on drain instead.
      else if (!res.writableNeedDrain) body.resume();
    });
  }

  private settle(complete: boolean, errorCode: RelayOutcome['errorCode']): void {
    if (this.settled) return;
    this.settled = true;
    this.res.off('close', this.onClose);
    const clientGone = errorCode === 'client_closed';
    this.resolve({ complete, clientGone, ttfbMs: this.ttfbMs, usage: this.input.tap.finish(), errorCode });
  }

  /** Ends the client's stream with an error event after what it already got. */
  private endWithError(message: string, code: Exclude<RelayOutcome['errorCode'], null>): void {
    const frame = streamErrorFrame(this.input.format, message, code);
    this.res.end(`${this.trailer}${frame}`, () => this.settle(false, code));
  }

  private send(chunk: Buffer | null): void {
    if (chunk === null) return;
    if (!this.res.write(chunk)) {
      this.body.pause();
      this.res.once('drain', this.onDrain);
    }
  }

  private readonly onDrain = (): void => {
    this.body.resume();
  };

  private readonly onClose = (): void => {
    if (this.res.writableFinished) return;
    // The client left: stop reading so undici closes the upstream socket at once.
    this.body.destroy();
    this.settle(false, 'client_closed');
  };

  private readonly onData = (chunk: Buffer): void => {
    const chain = this.observers.chain;
    this.send(chain.onChunk(chunk));
    if (chain.cut !== null) this.cut(chain.cut);
  };

  private readonly onEnd = (): void => {
    const rest = this.observers.chain.onEnd();
    if (rest) this.res.write(rest);
    const end = this.observers.ends ? this.observers.ends.end() : 'terminal';
    if (end === 'missing') return this.endWithError(UNTERMINATED[this.input.format], 'upstream_invalid_response');
    if (this.trailer !== '') this.res.write(this.trailer);
    this.res.end(() => this.settle(true, end === 'error' ? 'upstream_stream_error' : null));
  };

  private readonly onError = (error: unknown): void => {
    if (this.res.destroyed) return this.settle(false, 'client_closed');
    // The bridge gave up on the upstream's answer (an event past its cap): say so, not "lost".
    if (error instanceof TranslationFailure)
      return this.endWithError(`Leeway: ${error.message}; the answer is incomplete`, 'upstream_invalid_response');
    // Issue 21 §9: the request's signal ended it (the shutdown grace ran out), not the upstream.
    const shutdown = isShuttingDown(error);
    const code = shutdown ? 'shutdown' : 'upstream_stream_error';
    if (this.isSse) return this.endWithError(shutdown ? error.message : LOST, code);
    // A truncated JSON body must not look complete: cut the connection.
    this.res.destroy();
    this.settle(false, code);
  };

  /** WATCH-6/7: after commit the stream is never replayed; an honest error event ends it, settled once. */
  private cut(verdict: StreamCut): void {
    const body = this.body;
    body.off('data', this.onData);
    body.off('end', this.onEnd);
    body.off('error', this.onError);
    body.on('error', ignore);
    body.destroy(); // cancels the upstream request: only this attempt ends
    if (this.res.destroyed) return this.settle(false, 'client_closed');
    this.endWithError(tooSlow(verdict), 'upstream_too_slow');
  }
}
