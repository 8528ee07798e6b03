import { fail } from '../../src-shared/contract/errors';
import type { CoreEvent, EventName } from '../../src-shared/contract/events';
import { EVENT_NAMES } from './event-names';
import { isResult, type CoreEventListener, type Transport } from './transport';

/** The part of EventSource this transport uses, so tests can hand in a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
}

export interface HttpTransportOptions {
  /** Origin of the admin door; empty means the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  openEventSource?: (url: string) => EventSourceLike;
  /** Wait before re-opening a stream the browser gave up on (it retries network drops itself). */
  retryDelayMs?: (attempt: number) => number;
}

const CLOSED = 2;
const defaultRetryDelay = (attempt: number): number => Math.min(30_000, 1_000 * 2 ** attempt);

/** Transport over the admin HTTP door: POST /api/rpc/:method and GET /api/events, authenticated by the cookie. */
export function createHttpTransport(options: HttpTransportOptions = {}): Transport {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const openSource = options.openEventSource ?? ((url: string) => new EventSource(url));
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;

  const listeners = new Set<CoreEventListener>();
  const reconnectListeners = new Set<() => void>();
  let source: EventSourceLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let openedBefore = false;

  const dispatch = (type: EventName, data: unknown): void => {
    if (typeof data !== 'string') return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    const event = { type, payload } as CoreEvent;
    for (const listener of [...listeners]) listener(event);
  };

  const connect = (): void => {
    const es = openSource(`${base}/api/events`);
    source = es;
    es.addEventListener('open', () => {
      attempt = 0;
      // Events sent while we were away are lost; tell the stores to re-read their snapshots.
      if (openedBefore) for (const listener of [...reconnectListeners]) listener();
      openedBefore = true;
    });
    es.addEventListener('error', () => {
      // CLOSED means the browser gave up (server said 401 or not an event stream): retry ourselves, with backoff.
      if (es.readyState !== CLOSED || source !== es) return;
      es.close();
      source = null;
      retryTimer = setTimeout(() => {
        retryTimer = null;
        if (listeners.size > 0) connect();
      }, retryDelay(attempt++));
    });
    for (const name of EVENT_NAMES) es.addEventListener(name, (event) => dispatch(name, event.data));
  };

  const disconnect = (): void => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    source?.close();
    source = null;
  };

  return {
    async call(method, input) {
      let res: Response;
      try {
        res = await doFetch(`${base}/api/rpc/${encodeURIComponent(method)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? null),
        });
      } catch {
        return fail('internal_error', 'Cannot reach Leeway; is it still running?');
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        body = undefined;
      }
      return isResult(body)
        ? body
        : fail('internal_error', `Leeway answered HTTP ${res.status} without a result`, { status: res.status });
    },
    onEvent(listener) {
      listeners.add(listener);
      // One stream per page, opened by the first subscriber and closed with the last.
      if (listeners.size === 1 && source === null && retryTimer === null) connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) disconnect();
      };
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
  };
}
