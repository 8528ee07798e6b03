import { fail } from '../../src-shared/contract/errors';
import type { LeewayBridge } from './bridge';
import { isResult, type Transport } from './transport';

/** Transport over the preload bridge: the Electron window's way to the core. */
export function createIpcTransport(bridge: LeewayBridge): Transport {
  return {
    async call(method, input) {
      try {
        const answer: unknown = await bridge.call(method, input);
        return isResult(answer) ? answer : fail('internal_error', `Malformed answer to ${method}`);
      } catch {
        // The main process answers with data; a rejection means the bridge itself broke (window torn down, handler missing).
        return fail('internal_error', 'The window lost its connection to Leeway; reopen it from the tray');
      }
    },
    onEvent: (listener) => bridge.onEvent(listener),
  };
}
