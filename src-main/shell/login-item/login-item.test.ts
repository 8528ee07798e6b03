import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchCommand } from './launch-command';
import { autostartEntry, createXdgAutostart, xdgConfigHome } from './xdg-autostart';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('start at login', () => {
  it('PROD-4: relaunches this very app — the AppImage file, the packaged executable, or electron with the app folder', () => {
    expect(
      launchCommand({
        isPackaged: true,
        execPath: '/tmp/.mount_x/leeway',
        appPath: '/a',
        appImage: '/home/u/Leeway.AppImage',
      }),
    ).toEqual({ path: '/home/u/Leeway.AppImage', args: [] });
    expect(launchCommand({ isPackaged: true, execPath: '/opt/Leeway/leeway', appPath: '/a' })).toEqual({
      path: '/opt/Leeway/leeway',
      args: [],
    });
    expect(
      launchCommand({ isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', appPath: '/repo' }),
    ).toEqual({ path: '/repo/node_modules/electron/dist/electron', args: ['/repo'] });
  });

  it('PROD-4: the Linux autostart entry quotes its Exec line by the Desktop Entry rules', () => {
    const entry = autostartEntry({ path: '/home/me/My Apps/Leeway.AppImage', args: ['--data-dir=/d/100%', 'a"b$c'] });
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Leeway\n');
    expect(entry).toContain('Exec="/home/me/My Apps/Leeway.AppImage" --data-dir=/d/100%% "a\\\\"b\\\\$c"\n');
    expect(autostartEntry({ path: '/opt/Leeway/leeway', args: [] })).toContain('Exec=/opt/Leeway/leeway\n');
  });

  it('PROD-4: on Linux the state is the autostart file itself, written on and removed off', () => {
    const home = mkdtempSync(join(tmpdir(), 'leeway-xdg-'));
    dirs.push(home);
    const item = createXdgAutostart(join(home, '.config'), { path: '/opt/Leeway/leeway', args: [] });
    const file = join(home, '.config', 'autostart', 'leeway.desktop');
    expect(item.supported).toBe(true);
    expect(item.get()).toBe(false);
    item.set(true);
    expect(item.get()).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('Exec=/opt/Leeway/leeway');
    expect(statSync(file).mode & 0o777).toBe(0o644);
    // A desktop's own settings panel may disable the entry instead of deleting it.
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'),
    );
    expect(item.get()).toBe(false);
    item.set(false);
    expect(item.get()).toBe(false);
    item.set(false);
  });

  it('PROD-4: XDG_CONFIG_HOME is honoured only when absolute', () => {
    expect(xdgConfigHome({ XDG_CONFIG_HOME: '/cfg' }, '/home/u')).toBe('/cfg');
    expect(xdgConfigHome({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe(join('/home/u', '.config'));
    expect(xdgConfigHome({}, '/home/u')).toBe(join('/home/u', '.config'));
  });
});
