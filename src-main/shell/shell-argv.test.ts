import { describe, expect, it } from 'vitest';
import { userArgsFromElectronArgv } from './shell-argv';

describe('userArgsFromElectronArgv', () => {
  it('PROD-1: drops the executable and, for `electron .`, the app path', () => {
    expect(userArgsFromElectronArgv(['/opt/Leeway/leeway', '--port', '8000'], false)).toEqual(['--port', '8000']);
    expect(userArgsFromElectronArgv(['/usr/bin/electron', '.', '--port=8000'], true)).toEqual(['--port=8000']);
  });

  it('PROD-1: drops Chromium switches so they are not rejected as unknown Leeway flags', () => {
    const argv = [
      'electron',
      '.',
      '--no-sandbox',
      '--remote-debugging-port=9222',
      '--data-dir',
      '/d',
      '--ozone-platform=wayland',
    ];
    expect(userArgsFromElectronArgv(argv, true)).toEqual(['--data-dir', '/d']);
  });
});
