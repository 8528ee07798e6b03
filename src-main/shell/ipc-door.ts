import { fail, type Result } from '../../src-shared/contract/errors';
import { isMethodName } from '../../src-shared/contract/methods';
import type { ContractRouter } from './contract-call';
import { isTrustedSender, type IpcSenderInfo } from './trust';

/** The parts of Electron's IpcMainInvokeEvent the door reads; a test passes a plain object. */
export interface IpcEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcDoorDeps {
  router: ContractRouter;
  /** Our window's webContents id, or null before it exists or after it is gone. */
  windowWebContentsId(): number | null;
  log(line: string): void;
}

/** What the main process knows about the frame behind a call. */
export function senderInfoOf(event: IpcEventLike): IpcSenderInfo {
  const frame = event.senderFrame;
  return {
    webContentsId: event.sender.id,
    frameUrl: frame ? frame.url : null,
    isMainFrame: frame !== null && frame.parent === null,
  };
}

/** Where a refused call came from, reduced to scheme and host so no path, query or token reaches the log. */
export function describeFrame(frameUrl: string | null): string {
  if (frameUrl === null) return 'no frame';
  try {
    const url = new URL(frameUrl);
    return url.host ? `${url.protocol}//${url.host}` : url.protocol;
  } catch {
    return 'unparsable URL';
  }
}

/**
 * The IPC door's handler (PROD-8, PROD-18), given to `ipcMain.handle` as is: only our window's main
 * frame showing the bundled renderer may call; its input goes to the router, which validates it.
 * Every outcome is a Result — a refusal, invalid input or a bug never throws across the bridge —
 * and a refusal is logged with the method name only, never the input.
 */
export function createIpcHandler(
  deps: IpcDoorDeps,
): (event: IpcEventLike, method: unknown, input: unknown) => Promise<Result<unknown>> {
  return async (event, method, input) => {
    const sender = senderInfoOf(event);
    if (!isTrustedSender(sender, deps.windowWebContentsId())) {
      const name = typeof method === 'string' && isMethodName(method) ? method : '(unknown method)';
      deps.log(
        `Leeway: refused IPC call ${name} from an untrusted sender (webContents ${sender.webContentsId}, ${sender.isMainFrame ? 'main frame' : 'subframe'}, ${describeFrame(sender.frameUrl)})`,
      );
      return fail('forbidden_origin', 'IPC call from an untrusted frame was refused');
    }
    if (typeof method !== 'string') return fail('invalid_input', 'method must be a string');
    try {
      return await deps.router.call(method, input);
    } catch {
      return fail('internal_error', 'Internal error');
    }
  };
}
