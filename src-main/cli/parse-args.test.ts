import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, defaultDataDir, parseArgs, usage, type CliOptions } from './parse-args';
import { isLoopbackHost } from '../kernel/loopback';

const defaults = { dataDir: '/home/ada/.config/Leeway' };

function parsed(argv: string[], env: Record<string, string | undefined> = {}): CliOptions {
  const result = parseArgs(argv, env, defaults);
  if (!result.ok) throw new Error(`expected ok, got ${result.errors.join(' | ')}`);
  return result.value;
}

function errorsOf(argv: string[], env: Record<string, string | undefined> = {}): string[] {
  const result = parseArgs(argv, env, defaults);
  if (result.ok) throw new Error('expected errors');
  return result.errors;
}

describe('parseArgs', () => {
  it('PROD-2: with no flags the proxy listens on 127.0.0.1:7431 with the platform data dir', () => {
    const value = parsed([]);
    expect(value).toMatchObject({ host: '127.0.0.1', port: 7431, allowRemote: false, headless: false, help: false });
    expect(value.dataDir).toBe(defaults.dataDir);
    expect(value.warnings).toEqual([]);
    expect(value.adminPort).toBeUndefined();
    expect(DEFAULT_PORT).toBe(7431);
  });

  it('PROD-2: --port accepts both "--port 8000" and "--port=8000"', () => {
    expect(parsed(['--port', '8000']).port).toBe(8000);
    expect(parsed(['--port=8000']).port).toBe(8000);
  });

  it('PROD-2: port 0 is allowed so the OS picks a free port', () => {
    expect(parsed(['--port', '0']).port).toBe(0);
    expect(parsed([], { LEEWAY_PORT: '0' }).port).toBe(0);
  });

  it('PROD-2: LEEWAY_PORT sets the port and --port wins over it', () => {
    expect(parsed([], { LEEWAY_PORT: '9000' }).port).toBe(9000);
    expect(parsed(['--port', '8000'], { LEEWAY_PORT: '9000' }).port).toBe(8000);
  });

  it('PROD-2: ports outside 0-65535 or not integers are errors naming the flag or variable', () => {
    for (const bad of ['65536', '-1', 'abc', '80.5', '']) {
      const errors = errorsOf([`--port=${bad}`]);
      expect(errors.length).toBe(1);
      expect(errors[0]).toMatch(/--port/);
    }
    expect(errorsOf([], { LEEWAY_PORT: 'eighty' })[0]).toMatch(/LEEWAY_PORT/);
    expect(parsed(['--port', '65535']).port).toBe(65535);
  });

  it('PROD-2: --port without a value is an error', () => {
    expect(errorsOf(['--port'])[0]).toMatch(/--port needs a value/);
    expect(errorsOf(['--port', '--headless'])[0]).toMatch(/--port needs a value/);
  });

  it('PROD-2: a non-loopback --host without --allow-remote is an error', () => {
    const errors = errorsOf(['--host', '0.0.0.0']);
    expect(errors[0]).toMatch(/0\.0\.0\.0/);
    expect(errors[0]).toMatch(/--allow-remote/);
    expect(errorsOf(['--host=192.168.1.10'])[0]).toMatch(/--allow-remote/);
  });

  it('PROD-2: a non-loopback --host with --allow-remote is accepted with a warning', () => {
    const value = parsed(['--host', '0.0.0.0', '--allow-remote']);
    expect(value.host).toBe('0.0.0.0');
    expect(value.allowRemote).toBe(true);
    expect(value.warnings).toHaveLength(1);
    expect(value.warnings[0]).toMatch(/0\.0\.0\.0/);
  });

  it('PROD-2: loopback hosts need no --allow-remote and give no warning', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) {
      const value = parsed(['--host', host]);
      expect(value.host).toBe(host);
      expect(value.warnings).toEqual([]);
    }
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('::')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
  });

  it('PROD-2: --admin-port and LEEWAY_ADMIN_PORT set the admin port, the flag winning', () => {
    expect(parsed(['--admin-port', '7432']).adminPort).toBe(7432);
    expect(parsed([], { LEEWAY_ADMIN_PORT: '7500' }).adminPort).toBe(7500);
    expect(parsed(['--admin-port=7432'], { LEEWAY_ADMIN_PORT: '7500' }).adminPort).toBe(7432);
    expect(errorsOf(['--admin-port', '70000'])[0]).toMatch(/--admin-port/);
  });

  it('PROD-1: --headless selects the headless mode', () => {
    expect(parsed(['--headless']).headless).toBe(true);
  });

  it('PROD-3: --data-dir and LEEWAY_DATA_DIR choose the data directory, the flag winning', () => {
    expect(parsed(['--data-dir', '/tmp/lw']).dataDir).toBe('/tmp/lw');
    expect(parsed([], { LEEWAY_DATA_DIR: '/srv/lw' }).dataDir).toBe('/srv/lw');
    expect(parsed(['--data-dir=/tmp/lw'], { LEEWAY_DATA_DIR: '/srv/lw' }).dataDir).toBe('/tmp/lw');
    expect(parsed([], { LEEWAY_DATA_DIR: '' }).dataDir).toBe(defaults.dataDir);
  });

  it('PROD-14: --config / LEEWAY_CONFIG and LEEWAY_ADMIN_TOKEN are read', () => {
    expect(parsed(['--config', 'a.json'], { LEEWAY_CONFIG: 'b.json' }).configFile).toBe('a.json');
    expect(parsed([], { LEEWAY_CONFIG: 'b.json' }).configFile).toBe('b.json');
    expect(parsed([], { LEEWAY_ADMIN_TOKEN: 's3cret' }).adminToken).toBe('s3cret');
    expect(parsed([]).configFile).toBeUndefined();
    expect(parsed([]).adminToken).toBeUndefined();
  });

  it('ISSUE-13: --log-level / LEEWAY_LOG_LEVEL choose the log level (default info), the flag winning', () => {
    expect(parsed([]).logLevel).toBe('info');
    expect(parsed(['--log-level', 'warn']).logLevel).toBe('warn');
    expect(parsed(['--log-level=DEBUG']).logLevel).toBe('debug');
    expect(parsed([], { LEEWAY_LOG_LEVEL: 'error' }).logLevel).toBe('error');
    expect(parsed(['--log-level', 'trace'], { LEEWAY_LOG_LEVEL: 'fatal' }).logLevel).toBe('trace');
    expect(usage()).toMatch(/--log-level .*LEEWAY_LOG_LEVEL/);
  });

  it('ISSUE-13: an unknown log level is an error naming the flag or the variable and the levels', () => {
    expect(errorsOf(['--log-level', 'loud'])).toEqual([
      '--log-level must be one of trace, debug, info, warn, error, fatal, got "loud".',
    ]);
    expect(errorsOf([], { LEEWAY_LOG_LEVEL: 'verbose' })[0]).toMatch(/^LEEWAY_LOG_LEVEL must be one of/);
    expect(errorsOf(['--log-level'])).toEqual(['--log-level needs a value.']);
  });

  it('issue 21 §9: --shutdown-grace / LEEWAY_SHUTDOWN_GRACE set the seconds Ctrl-C lets requests finish (default 10), the flag winning', () => {
    expect(parsed([]).shutdownGraceMs).toBe(10_000);
    expect(parsed([], { LEEWAY_SHUTDOWN_GRACE: '2.5' }).shutdownGraceMs).toBe(2_500);
    expect(parsed(['--shutdown-grace', '0'], { LEEWAY_SHUTDOWN_GRACE: '30' }).shutdownGraceMs).toBe(0);
    expect(errorsOf(['--shutdown-grace', 'soon'])).toEqual([
      '--shutdown-grace must be a number of seconds from 0 to 600, got "soon".',
    ]);
    expect(errorsOf([], { LEEWAY_SHUTDOWN_GRACE: '601' })[0]).toContain('LEEWAY_SHUTDOWN_GRACE');
  });

  it('PROD-1: unknown flags and stray arguments are errors, all reported at once', () => {
    const errors = errorsOf(['--prot', '8000', 'extra', '--headless=yes']);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/Unknown option "--prot"/);
    expect(errors.join('\n')).toMatch(/--headless takes no value/);
  });

  it('PROD-1: --help wins over other problems so it always prints usage', () => {
    expect(parsed(['--help', '--bogus']).help).toBe(true);
    expect(parsed(['-h']).help).toBe(true);
    expect(usage()).toMatch(/--port N/);
    expect(usage()).toMatch(/LEEWAY_PORT/);
  });
});

describe('defaultDataDir', () => {
  it('PROD-3: Linux uses $XDG_CONFIG_HOME/Leeway, else ~/.config/Leeway', () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ada')).toBe('/xdg/Leeway');
    expect(defaultDataDir('linux', {}, '/home/ada')).toBe('/home/ada/.config/Leeway');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: 'relative' }, '/home/ada')).toBe('/home/ada/.config/Leeway');
  });

  it('PROD-3: macOS uses ~/Library/Application Support/Leeway', () => {
    expect(defaultDataDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/Leeway');
  });

  it('PROD-3: Windows uses %APPDATA%\\Leeway', () => {
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Leeway',
    );
    expect(defaultDataDir('win32', {}, 'C:\\Users\\ada')).toBe('C:\\Users\\ada\\AppData\\Roaming\\Leeway');
  });
});
