import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpTransport, type EventSourceLike } from './http-transport';

type Listener = (event: { data?: unknown }) => void;

/** A stand-in EventSource the test drives by hand. */
class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  fire(type: string, data?: string): void {
    if (type === 'open') this.readyState = 1;
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
}

const jsonResponse = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('HTTP transport', () => {
  afterEach(() => {
    FakeEventSource.opened = [];
    vi.useRealTimers();
  });

  it('PROD-9 posts JSON to /api/rpc/:method with same-origin credentials and returns the Result', async () => {
    const fetchStub = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
      jsonResponse(200, { ok: true, value: { paused: true } }),
    );
    const transport = createHttpTransport({ fetch: fetchStub });
    const result = await transport.call('app.setPaused', { paused: true });
    expect(result).toEqual({ ok: true, value: { paused: true } });
    const [url, init] = fetchStub.mock.calls[0] ?? [];
    expect(url).toBe('/api/rpc/app.setPaused');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: '{"paused":true}',
    });
  });

  it('PROD-9 passes an error Result through whatever the HTTP status', async () => {
    const error = { code: 'unauthorized', message: 'Missing or wrong admin token' };
    const transport = createHttpTransport({ fetch: async () => jsonResponse(401, { ok: false, error }) });
    expect(await transport.call('app.info', undefined)).toEqual({ ok: false, error });
  });

  it('PROD-9 turns a network failure or a non-Result body into an internal_error Result, never a throw', async () => {
    const down = createHttpTransport({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    expect(await down.call('app.info', undefined)).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    const html = createHttpTransport({ fetch: async () => new Response('<html>bad gateway</html>', { status: 502 }) });
    expect(await html.call('app.info', undefined)).toMatchObject({
      ok: false,
      error: { code: 'internal_error', status: 502 },
    });
  });

  it('PROD-8 opens one event stream for the first listener, parses named events, and closes with the last', () => {
    const transport = createHttpTransport({ fetch: vi.fn(), openEventSource: (url) => new FakeEventSource(url) });
    const a = vi.fn();
    const b = vi.fn();
    const offA = transport.onEvent(a);
    const offB = transport.onEvent(b);
    expect(FakeEventSource.opened).toHaveLength(1);
    const es = FakeEventSource.opened[0];
    expect(es?.url).toBe('/api/events');
    es?.fire('app.paused', '{"paused":true}');
    es?.fire('activity.request', 'not json');
    expect(a).toHaveBeenCalledExactlyOnceWith({ type: 'app.paused', payload: { paused: true } });
    expect(b).toHaveBeenCalledTimes(1);
    offA();
    expect(es?.closed).toBe(false);
    offB();
    expect(es?.closed).toBe(true);
  });

  it('PROD-8 reopens a stream the browser gave up on, with backoff, and reports the reconnect', () => {
    vi.useFakeTimers();
    const transport = createHttpTransport({
      fetch: vi.fn(),
      openEventSource: (url) => new FakeEventSource(url),
      retryDelayMs: (n) => 100 * (n + 1),
    });
    const reconnected = vi.fn();
    transport.onReconnect?.(reconnected);
    transport.onEvent(() => {});
    const first = FakeEventSource.opened[0];
    first?.fire('open');
    expect(reconnected).not.toHaveBeenCalled();

    first?.close();
    first?.fire('error');
    vi.advanceTimersByTime(99);
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    FakeEventSource.opened[1]?.fire('open');
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it('PROD-8 treats a browser-side automatic reconnect as a gap too', () => {
    const transport = createHttpTransport({ fetch: vi.fn(), openEventSource: (url) => new FakeEventSource(url) });
    const reconnected = vi.fn();
    transport.onReconnect?.(reconnected);
    transport.onEvent(() => {});
    const es = FakeEventSource.opened[0];
    es?.fire('open');
    es?.fire('error');
    es?.fire('open');
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(reconnected).toHaveBeenCalledTimes(1);
  });
});
