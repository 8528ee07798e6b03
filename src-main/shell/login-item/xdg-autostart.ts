import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { LoginItem } from '../tray/tray-actions';
import type { LaunchCommand } from './launch-command';

const SAFE_ARG = /^[A-Za-z0-9_\-./:@+=,%]+$/;

/** One Exec argument, quoted by the Desktop Entry rules (reserved characters, then string escapes). */
function execArg(arg: string): string {
  const quoted = SAFE_ARG.test(arg) ? arg : `"${arg.replace(/[\\"`$]/g, '\\$&')}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

/** The `~/.config/autostart` entry that starts Leeway at login on Linux desktops (XDG Autostart). */
export function autostartEntry(command: LaunchCommand): string {
  const exec = [command.path, ...command.args].map(execArg).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Leeway',
    'Comment=Local LLM proxy for coding agents',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config`. */
export function xdgConfigHome(env: NodeJS.ProcessEnv, home: string): string {
  const configured = env.XDG_CONFIG_HOME;
  return configured && isAbsolute(configured) ? configured : join(home, '.config');
}

/**
 * Start at login on Linux, where Electron's setLoginItemSettings does nothing: the state is the
 * autostart file itself, so it survives reinstalls and matches what the desktop's own settings show.
 */
export function createXdgAutostart(configHome: string, command: LaunchCommand): LoginItem {
  const dir = join(configHome, 'autostart');
  const file = join(dir, 'leeway.desktop');
  return {
    supported: true,
    get() {
      if (!existsSync(file)) return false;
      const text = readFileSync(file, 'utf8');
      return !/^Hidden\s*=\s*true\s*$/m.test(text) && !/^X-GNOME-Autostart-enabled\s*=\s*false\s*$/m.test(text);
    },
    set(enabled) {
      if (!enabled) return rmSync(file, { force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, autostartEntry(command), { mode: 0o644 });
    },
  };
}
