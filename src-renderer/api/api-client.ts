import type { Result } from '../../src-shared/contract/errors';
import type { EventMap, EventName } from '../../src-shared/contract/events';
import type { MethodInput, MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type { CoreEventListener, Transport } from './transport';

/** Methods whose input is optional may be called with the method name alone. */
export type CallArgs<M extends MethodName> =
  undefined extends MethodInput<M> ? [input?: MethodInput<M>] : [input: MethodInput<M>];

/** The renderer's typed view of the contract; every feature and store talks to the core through it. */
export interface ApiClient {
  call<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Result<MethodOutput<M>>>;
  on(listener: CoreEventListener): () => void;
  /** Called when events may have been missed (HTTP stream gap); re-read snapshots then. */
  onReconnect(listener: () => void): () => void;
}

export function createApiClient(transport: Transport): ApiClient {
  return {
    call<M extends MethodName>(method: M, ...args: CallArgs<M>) {
      // The core validated the input and built the value against this same contract, so the output type holds.
      return transport.call(method, args[0]) as Promise<Result<MethodOutput<M>>>;
    },
    on: (listener) => transport.onEvent(listener),
    onReconnect: (listener) => transport.onReconnect?.(listener) ?? (() => {}),
  };
}

/** Listens to one event type with its payload typed. */
export function onEventType<K extends EventName>(
  api: ApiClient,
  type: K,
  listener: (payload: EventMap[K]) => void,
): () => void {
  return api.on((event) => {
    if (event.type === type) listener(event.payload as EventMap[K]);
  });
}
