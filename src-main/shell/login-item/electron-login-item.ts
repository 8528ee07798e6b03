import { homedir } from 'node:os';
import { app } from 'electron';
import type { EnvVars } from '../../kernel/env-vars';
import type { LoginItem } from '../tray/tray-actions';
import { launchCommand } from './launch-command';
import { createXdgAutostart, xdgConfigHome } from './xdg-autostart';

/**
 * "Start at login": Electron's login item on macOS and Windows (its state read back with
 * getLoginItemSettings, so nothing else needs persisting), an XDG autostart file on Linux.
 * `env`: the environment the entry read (APPIMAGE, XDG_CONFIG_HOME).
 */
export function createLoginItem(env: EnvVars): LoginItem {
  const command = launchCommand({
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    appPath: app.getAppPath(),
    appImage: env.APPIMAGE,
  });
  if (process.platform === 'linux') return createXdgAutostart(xdgConfigHome(env, homedir()), command);
  if (process.platform !== 'darwin' && process.platform !== 'win32')
    return { supported: false, get: () => false, set: () => {} };
  const query = { path: command.path, args: command.args };
  return {
    supported: true,
    get: () => app.getLoginItemSettings(query).openAtLogin,
    set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, ...query }),
  };
}
