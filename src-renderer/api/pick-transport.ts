import type { LeewayBridge } from './bridge';
import { createHttpTransport } from './http-transport';
import { createIpcTransport } from './ipc-transport';
import type { Transport } from './transport';

/** The preload bridge when running in the Electron window, else the admin HTTP door of the page's origin. */
export function pickTransport(host: { leeway?: LeewayBridge } | undefined = globalThis.window): Transport {
  const bridge = host?.leeway;
  return bridge ? createIpcTransport(bridge) : createHttpTransport();
}
