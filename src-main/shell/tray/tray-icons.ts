import { join } from 'node:path';
import type { TrayState } from './tray-state';

/**
 * Folder of the tray icons: electron-builder copies build/tray to `resources/tray` (extraResources);
 * unpackaged (`electron .`) they are read from the repository's build/tray.
 */
export function trayIconDir(app: { isPackaged: boolean; resourcesPath: string; appPath: string }): string {
  return app.isPackaged ? join(app.resourcesPath, 'tray') : join(app.appPath, 'build', 'tray');
}

/** The icon of a state; Electron picks the `@2x` sibling by itself on high-DPI screens. */
export function trayIconPath(dir: string, state: TrayState): string {
  return join(dir, `${state}.png`);
}
