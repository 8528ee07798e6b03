import type { Result } from './errors';
import type { CoreEvent } from './events';

/** IPC channel for every contract call from the window (one `ipcMain.handle`). */
export const IPC_CALL_CHANNEL = 'leeway:call';
/** IPC channel on which the main process pushes core events to the window. */
export const IPC_EVENT_CHANNEL = 'leeway:event';
/** Name of the global the preload exposes: `window.leeway`. */
export const BRIDGE_GLOBAL = 'leeway';

/**
 * What the preload exposes to the renderer (PROD-8): exactly one call door and one event feed,
 * so the window never touches Node, Electron or the database.
 */
export interface LeewayBridge {
  call(method: string, input?: unknown): Promise<Result<unknown>>;
  /** Subscribes to core events; returns the unsubscribe function. */
  onEvent(listener: (event: CoreEvent) => void): () => void;
}
