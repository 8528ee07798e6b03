import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideAutoUpdate, updateConfigPath, type UpdateFacts } from './updater-policy';

/** Auto-update wiring that is inert without a publish config (issue 13 §7), as a pure decision. */
const packaged: UpdateFacts = {
  isPackaged: true,
  platform: 'darwin',
  hasUpdateConfig: true,
  appImage: undefined,
  hasPackageType: false,
};

describe('auto-update decision', () => {
  it('PROD-1: a build without a publish config (no app-update.yml) never checks: no network, no error', () => {
    for (const platform of ['darwin', 'win32', 'linux'])
      expect(decideAutoUpdate({ ...packaged, platform, hasUpdateConfig: false, appImage: '/x.AppImage' })).toEqual({
        kind: 'inert',
        reason: 'this build has no publish configuration',
      });
  });

  it('PROD-1: running from source never checks, whatever files are around', () => {
    expect(decideAutoUpdate({ ...packaged, isPackaged: false })).toEqual({
      kind: 'inert',
      reason: 'running from source',
    });
  });

  it('PROD-1: with a publish config, macOS and Windows check; Linux only as an AppImage or an installed package', () => {
    expect(decideAutoUpdate(packaged)).toEqual({ kind: 'check' });
    expect(decideAutoUpdate({ ...packaged, platform: 'win32' })).toEqual({ kind: 'check' });
    expect(decideAutoUpdate({ ...packaged, platform: 'linux', appImage: '/opt/Leeway.AppImage' })).toEqual({
      kind: 'check',
    });
    expect(decideAutoUpdate({ ...packaged, platform: 'linux', hasPackageType: true })).toEqual({ kind: 'check' });
    expect(decideAutoUpdate({ ...packaged, platform: 'linux' })).toMatchObject({ kind: 'inert' });
  });

  it('PROD-1: the publish config is looked for where electron-updater reads it', () => {
    expect(updateConfigPath('/opt/Leeway/resources')).toBe(join('/opt/Leeway/resources', 'app-update.yml'));
  });
});
