import { fail, type Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';
import { isMethodName, methods, type MethodName } from '../../src-shared/contract/methods';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { createApiClient, type ApiClient } from './api-client';
import { createFakeHandlers, createFakeState, type FakeState } from './fake-handlers';
import type { CoreEventListener, Transport } from './transport';

/** An in-memory core for component and store tests: same contract, same events, no server. */
export interface FakeApi {
  client: ApiClient;
  transport: Transport;
  state: FakeState;
  /** Every call made, in order, with its raw input. */
  calls: { method: MethodName; input: unknown }[];
  /** Pushes an event as if the core had emitted it. */
  emit(event: CoreEvent): void;
  /** Simulates a proxied request landing in the activity log. */
  recordRequest(entry: Partial<RequestLogEntry>): RequestLogEntry;
  /** Simulates the event stream coming back after a gap. */
  reconnect(): void;
}

export function createFakeApi(seed: Partial<FakeState> = {}, now: () => number = () => 1_700_000_000_000): FakeApi {
  const state = createFakeState(seed);
  const listeners = new Set<CoreEventListener>();
  const reconnectListeners = new Set<() => void>();
  const calls: FakeApi['calls'] = [];
  const emit = (event: CoreEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };
  const handlers = createFakeHandlers(state, emit, now);

  const transport: Transport = {
    async call(method, input) {
      calls.push({ method, input });
      if (!isMethodName(method)) return fail('unknown_method', `Unknown method "${String(method)}"`);
      // Validate like the real router so tests catch inputs the core would refuse.
      const parsed = methods[method].input.safeParse(input ?? undefined);
      if (!parsed.success)
        return fail(
          'invalid_input',
          parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; '),
        );
      const handler = handlers[method] as (value: unknown) => Result<unknown>;
      return handler(parsed.data);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
  };

  return {
    client: createApiClient(transport),
    transport,
    state,
    calls,
    emit,
    recordRequest(partial) {
      const entry: RequestLogEntry = {
        id: state.activity.reduce((max, e) => Math.max(max, e.id), 0) + 1,
        ts: now(),
        keyName: null,
        apiFormat: 'anthropic',
        endpoint: '/v1/messages',
        model: 'claude-sonnet-4-5',
        connection: null,
        status: 200,
        stream: false,
        latencyMs: 100,
        ttfbMs: null,
        inputTokens: null,
        outputTokens: null,
        cacheReadTokens: null,
        cacheWriteTokens: null,
        failover: [],
        errorCode: null,
        servedVia: null,
        sessionPin: null,
        ...partial,
      };
      state.activity = [...state.activity, entry];
      emit({ type: 'activity.request', payload: { entry } });
      return entry;
    },
    reconnect() {
      for (const listener of [...reconnectListeners]) listener();
    },
  };
}
