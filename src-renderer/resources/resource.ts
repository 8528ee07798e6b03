import type { AppError } from '../../src-shared/contract/errors';
import type { CoreEvent, EventMap, EventName } from '../../src-shared/contract/events';
import type { MethodInput, MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type { ApiClient, CallArgs } from '../api/api-client';

/** What an event does to a datum: `'reload'` re-reads it; a function puts the event's own copy in (undefined: ignore). */
export type EventReaction<T, K extends EventName> =
  'reload' | ((payload: EventMap[K], current: T | undefined) => T | undefined);

export type ResourceEvents<T> = { [K in EventName]?: EventReaction<T, K> };

/** One server datum: the contract method (and input) that reads it, and what keeps it current. */
export interface ResourceSpec<M extends MethodName> {
  method: M;
  input?: MethodInput<M>;
  /** Core events that change this datum. */
  events?: ResourceEvents<MethodOutput<M>>;
  /** Re-read this often while read: data that moves without an event (queues, usage, pins). */
  pollMs?: number;
  /** A costly datum: event reloads wait until this long after the previous load. */
  throttleMs?: number;
}

export interface ResourceState<T> {
  /** Undefined until the first answer; kept while a reload runs or fails. */
  data: T | undefined;
  /** The last read's refusal; cleared by the next answer or event. */
  error: AppError | null;
  loading: boolean;
  /** Local `Date.now()` when `data` last changed: countdowns estimate the core's clock from it. */
  receivedAt: number;
}

export interface Resource<T> {
  readonly key: string;
  readonly method: MethodName;
  getSnapshot(): ResourceState<T>;
  /** Counts readers: the first starts events, polling and a load; the last one leaving stops them. */
  subscribe(listener: () => void): () => void;
  /** Re-reads now; a load already running is followed by one more, never by several. */
  reload(): Promise<void>;
  active(): boolean;
}

/** The cache key: method plus input, so every reader of the same datum shares one resource. */
export function resourceKey(method: MethodName, input: unknown): string {
  return input === undefined ? method : `${method} ${JSON.stringify(input)}`;
}

/**
 * A server datum behind `useSyncExternalStore`: one fetch however many components read it, one
 * event subscription while anyone reads it, torn down once nobody does. A load that started
 * before an event carried newer data is dropped, so a late snapshot never overwrites the event.
 */
export function createResource<M extends MethodName>(
  api: ApiClient,
  spec: ResourceSpec<M>,
  clock: () => number = () => Date.now(),
): Resource<MethodOutput<M>> {
  type T = MethodOutput<M>;
  // The spec's input is what the contract takes for M; a resource of a no-input method has none.
  const args = (spec.input === undefined ? [] : [spec.input]) as CallArgs<M>;
  let state: ResourceState<T> = { data: undefined, error: null, loading: false, receivedAt: 0 };
  const listeners = new Set<() => void>();
  let stops: (() => void)[] = [];
  let inFlight: Promise<void> | null = null;
  let again = false;
  // Bumped whenever an event puts data in; a load begun before then answers with older data.
  let version = 0;
  let lastLoadAt = Number.NEGATIVE_INFINITY;
  let throttled: ReturnType<typeof setTimeout> | null = null;

  const set = (patch: Partial<ResourceState<T>>): void => {
    state = { ...state, ...patch };
    for (const listener of [...listeners]) listener();
  };

  const loadOnce = async (): Promise<void> => {
    const started = version;
    lastLoadAt = clock();
    const result = await api.call(spec.method, ...args);
    if (version !== started) return;
    if (result.ok) set({ data: result.value, error: null, receivedAt: clock() });
    else set({ error: result.error });
  };

  const reload = (): Promise<void> => {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    if (!state.loading) set({ loading: true });
    inFlight = (async () => {
      try {
        do {
          again = false;
          await loadOnce();
        } while (again);
      } finally {
        inFlight = null;
        set({ loading: false });
      }
    })();
    return inFlight;
  };

  const reloadThrottled = (): void => {
    const wait = spec.throttleMs === undefined ? 0 : lastLoadAt + spec.throttleMs - clock();
    if (wait <= 0) return void reload();
    throttled ??= setTimeout(() => {
      throttled = null;
      void reload();
    }, wait);
  };

  const react = <K extends EventName>(type: K, payload: EventMap[K]): void => {
    const reaction: EventReaction<T, K> | undefined = spec.events?.[type];
    if (reaction === undefined) return;
    if (reaction === 'reload') return reloadThrottled();
    const next = reaction(payload, state.data);
    if (next === undefined) return;
    version++;
    set({ data: next, error: null, receivedAt: clock() });
  };
  const onEvent = (event: CoreEvent): void => react(event.type, event.payload);

  const start = (): void => {
    stops = [api.on(onEvent), api.onReconnect(() => void reload())];
    if (spec.pollMs !== undefined) {
      const timer = setInterval(() => void reload(), spec.pollMs);
      stops.push(() => clearInterval(timer));
    }
    // Whatever was kept from an earlier reader may be stale: re-read, showing it meanwhile. A read
    // still running (a reader that left and came straight back: StrictMode, a tab switch) is fresh enough.
    if (!inFlight) void reload();
  };

  const stop = (): void => {
    for (const off of stops) off();
    stops = [];
    if (throttled !== null) clearTimeout(throttled);
    throttled = null;
  };

  return {
    key: resourceKey(spec.method, spec.input),
    method: spec.method,
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1 && stops.length === 0) start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    reload,
    active: () => stops.length > 0,
  };
}
