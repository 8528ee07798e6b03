import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trayIconDir, trayIconPath } from './tray-icons';
import { TRAY_STATES } from './tray-state';

const repo = join(import.meta.dirname, '..', '..', '..');

describe('tray icons', () => {
  it('PROD-4: every tray state has its icon (and a @2x) in build/tray, found unpackaged from the app path', () => {
    const dir = trayIconDir({ isPackaged: false, resourcesPath: '/nowhere', appPath: repo });
    for (const state of TRAY_STATES) {
      expect(existsSync(trayIconPath(dir, state)), state).toBe(true);
      expect(existsSync(join(dir, `${state}@2x.png`)), `${state}@2x`).toBe(true);
    }
  });

  it('PROD-4: packaged, the icons come from resources/tray as electron-builder copies them', () => {
    expect(trayIconDir({ isPackaged: true, resourcesPath: '/opt/Leeway/resources', appPath: '/x' })).toBe(
      join('/opt/Leeway/resources', 'tray'),
    );
  });
});
