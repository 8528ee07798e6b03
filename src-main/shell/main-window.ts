import { BrowserWindow } from 'electron';
import { createWindowOptions } from './window-options';

/**
 * The main window: isolated, sandboxed, no Node (window-options.ts); closing it only hides it so the
 * proxy keeps serving from the tray. Navigation and new windows are refused session-wide (harden-session.ts).
 */
export function createMainWindow(
  paths: { preload: string; indexHtml: string },
  isQuitting: () => boolean,
): BrowserWindow {
  const win = new BrowserWindow(createWindowOptions(paths.preload));
  win.once('ready-to-show', () => win.show());
  win.on('close', (event) => {
    if (isQuitting()) return;
    event.preventDefault();
    win.hide();
  });
  void win.loadFile(paths.indexHtml);
  return win;
}

/** Brings a window to the front, restoring it if minimised. */
export function revealWindow(win: BrowserWindow): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
