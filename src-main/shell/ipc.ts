import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { IPC_CALL_CHANNEL } from '../../src-shared/contract/bridge';
import { fail } from '../../src-shared/contract/errors';
import { isTrustedSender } from './trust';

/** The part of the core the IPC door needs. */
export interface IpcRouter {
  call(method: string, input: unknown): Promise<unknown>;
}

function senderInfo(event: IpcMainInvokeEvent): Parameters<typeof isTrustedSender>[0] {
  const frame = event.senderFrame;
  return {
    webContentsId: event.sender.id,
    frameUrl: frame ? frame.url : null,
    isMainFrame: frame !== null && frame.parent === null,
  };
}

/**
 * Registers the one IPC door (PROD-8): `headroom:call` from our window's main frame goes to the
 * router, which validates and never throws; anything else is refused as data. Returns an unregister.
 */
export function registerIpc(router: IpcRouter, getWindowWebContentsId: () => number | null): () => void {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!isTrustedSender(senderInfo(event), getWindowWebContentsId())) {
      return fail('forbidden_origin', 'IPC call from an untrusted frame was refused');
    }
    if (typeof method !== 'string') return fail('invalid_input', 'method must be a string');
    return router.call(method, input);
  });
  return () => ipcMain.removeHandler(IPC_CALL_CHANNEL);
}
