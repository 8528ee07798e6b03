/** What the main process knows about the frame behind an IPC call. */
export interface IpcSenderInfo {
  webContentsId: number;
  /** Null when the frame is gone or unknown. */
  frameUrl: string | null;
  isMainFrame: boolean;
}

/**
 * A call is trusted only from the main frame of our own window showing our bundled renderer
 * (a `file:` page; navigation elsewhere is blocked): an iframe or a stranger's page gets nothing.
 */
export function isTrustedSender(sender: IpcSenderInfo, windowWebContentsId: number | null): boolean {
  if (windowWebContentsId === null || sender.webContentsId !== windowWebContentsId) return false;
  if (!sender.isMainFrame || sender.frameUrl === null) return false;
  try {
    return new URL(sender.frameUrl).protocol === 'file:';
  } catch {
    return false;
  }
}
