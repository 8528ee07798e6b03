import { fail, type Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';
import { isMethodName, methods, type MethodName } from '../../src-shared/contract/methods';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { createApiClient, type ApiClient } from '../api/api-client';
import type { CoreEventListener, Transport } from '../api/transport';
import { fakeRequest } from './fake-fixtures';
import { createFakeAgentSetup } from './fake-agent-setup';
import type { FakeHandlers } from './fake-handlers';
import { createFakeOperations } from './fake-operations';
import { createFakeReads } from './fake-reads';
import { createFakeState, type FakeState } from './fake-state';
import { createFakeWrites } from './fake-writes';

/** An in-memory core for component tests: the contract's shape, canned data, events pushed by hand. */
export interface FakeCore {
  client: ApiClient;
  transport: Transport;
  state: FakeState;
  /** Every call made, in order, with its raw input. */
  calls: { method: MethodName; input: unknown }[];
  /** Pushes an event as if the core had emitted it. */
  emit(event: CoreEvent): void;
  /** A request landing in the activity log, with its `activity.request` event. */
  recordRequest(entry: Partial<RequestLogEntry>): RequestLogEntry;
  /** The event stream coming back after a gap. */
  reconnect(): void;
}

export function createFakeCore(seed: Partial<FakeState> = {}, now: () => number = () => 1_700_000_000_000): FakeCore {
  const state = createFakeState(seed);
  const listeners = new Set<CoreEventListener>();
  const reconnectListeners = new Set<() => void>();
  const calls: FakeCore['calls'] = [];
  const handlers = {
    ...createFakeReads(state, now),
    ...createFakeWrites(state, now),
    ...createFakeOperations(state, now),
    ...createFakeAgentSetup(state, now),
  } satisfies FakeHandlers;
  const emit = (event: CoreEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  const transport: Transport = {
    async call(method, input) {
      calls.push({ method, input });
      if (!isMethodName(method)) return fail('unknown_method', `Unknown method "${String(method)}"`);
      // The contract's own schema, as the router applies it: a test sees what the core would refuse as input.
      const parsed = methods[method].input.safeParse(input ?? undefined);
      if (!parsed.success)
        return fail(
          'invalid_input',
          parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; '),
        );
      // The schema of `method` parsed the input, so its handler takes it.
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
      const id = state.activity.reduce((max, e) => Math.max(max, e.id), 0) + 1;
      const entry = fakeRequest(id, now(), partial);
      state.activity = [...state.activity, entry];
      emit({ type: 'activity.request', payload: { entry } });
      return entry;
    },
    reconnect() {
      for (const listener of [...reconnectListeners]) listener();
    },
  };
}
