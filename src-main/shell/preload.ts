import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  BRIDGE_GLOBAL,
  IPC_CALL_CHANNEL,
  IPC_EVENT_CHANNEL,
  type LeewayBridge,
} from '../../src-shared/contract/bridge';
import type { Result } from '../../src-shared/contract/errors';
import type { CoreEvent } from '../../src-shared/contract/events';

// Sandboxed preload (built as CommonJS): only `electron` is importable; everything else is bundled in.
const bridge: LeewayBridge = {
  call(method, input) {
    if (typeof method !== 'string') return Promise.reject(new TypeError('method must be a string'));
    return ipcRenderer.invoke(IPC_CALL_CHANNEL, method, input) as Promise<Result<unknown>>;
  },
  onEvent(listener) {
    const handler = (_event: IpcRendererEvent, coreEvent: CoreEvent): void => listener(coreEvent);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
