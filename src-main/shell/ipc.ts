import { ipcMain } from 'electron';
import { IPC_CALL_CHANNEL } from '../../src-shared/contract/bridge';
import { createIpcHandler, type IpcDoorDeps } from './ipc-door';

/**
 * Registers the one IPC door (PROD-8): `leeway:call` goes to createIpcHandler, whose checks are
 * pure and tested without Electron. Returns an unregister.
 */
export function registerIpc(deps: IpcDoorDeps): () => void {
  ipcMain.handle(IPC_CALL_CHANNEL, createIpcHandler(deps));
  return () => ipcMain.removeHandler(IPC_CALL_CHANNEL);
}
