/**
 * One request/response pair inside the fake: writes a plan chunk by chunk (optionally paced or cut
 * short), records every byte that went out, and notices when the client leaves early.
 */
import type { ServerResponse } from 'node:http';
import type { ResponsePlan } from './fake-upstream-errors';
import type { RecordedRequest } from './fake-upstream-types';

export interface SendMode {
  /** Pause before each chunk, so slow streams and slow bodies can be simulated. */
  intervalMs?: number;
  /** Write only this many chunks, then destroy the socket as a crashed upstream would. */
  dropAfter?: number;
  /** With dropAfter: end with a TCP reset (RST) instead of a plain close. */
  reset?: boolean;
  /** Write the headers and then nothing more, until the client leaves or the fake closes. */
  stallAfterHeaders?: boolean;
}

export interface Exchange {
  /** Resolves true after `ms`, or false as soon as the exchange is over (client left, fake closing). */
  wait(ms: number): Promise<boolean>;
  send(plan: ResponsePlan, mode?: SendMode): Promise<void>;
  /** Ends waits and writes; called when the fake closes. */
  cancel(): void;
}

export function createExchange(res: ServerResponse, record: RecordedRequest, isClosing: () => boolean): Exchange {
  let over = false;
  let droppedByFake = false;
  const wakers = new Set<() => void>();

  const cancel = (): void => {
    over = true;
    for (const wake of [...wakers]) wake();
  };

  res.on('close', () => {
    // Only a departure the fake did not cause counts as the client aborting.
    if (!res.writableFinished && !droppedByFake && !isClosing()) record.aborted = true;
    cancel();
  });

  const wait = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (over) return resolve(false);
      const wake = (): void => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        wakers.delete(wake);
        resolve(!over);
      }, ms);
      wakers.add(wake);
    });

  // Waiting for the write callback gives real backpressure and guarantees bytes reached the
  // kernel before a deliberate drop destroys the socket.
  const writeChunk = (chunk: string): Promise<boolean> =>
    new Promise((resolve) => {
      if (over) return resolve(false);
      const wake = (): void => {
        wakers.delete(wake);
        resolve(false);
      };
      wakers.add(wake);
      res.write(chunk, (error) => {
        wakers.delete(wake);
        resolve(!error && !over);
      });
    });

  const send = async (plan: ResponsePlan, mode: SendMode = {}): Promise<void> => {
    if (over) return;
    const response = {
      status: plan.status,
      headers: { ...plan.headers },
      body: '',
      complete: false,
    };
    record.response = response;
    res.writeHead(plan.status, plan.headers);
    res.flushHeaders();
    if (mode.stallAfterHeaders) return;
    const limit = Math.min(mode.dropAfter ?? plan.chunks.length, plan.chunks.length);
    for (const chunk of plan.chunks.slice(0, limit)) {
      if (mode.intervalMs !== undefined && !(await wait(mode.intervalMs))) return;
      // Recorded before the write resolves: once handed to the socket the client may read it.
      response.body += chunk;
      if (!(await writeChunk(chunk))) return;
    }
    if (mode.dropAfter !== undefined) {
      droppedByFake = true;
      const socket = res.socket;
      if (!socket) return;
      // The headers must reach the peer before the drop, or it sees a refused request instead.
      await new Promise<void>((resolve) => socket.write('', () => resolve()));
      if (mode.reset) socket.resetAndDestroy();
      else socket.destroy();
      return;
    }
    res.end(() => {
      response.complete = true;
    });
  };

  return { wait, send, cancel };
}
