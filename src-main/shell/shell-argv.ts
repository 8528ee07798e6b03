/** Chromium/Electron switches that may reach the app's argv and are not Leeway's to reject. */
const CHROMIUM_SWITCHES = [
  '--no-sandbox',
  '--disable-gpu',
  '--enable-logging',
  '--inspect',
  '--inspect-brk',
  '--remote-debugging-port',
  '--ozone-platform',
  '--ozone-platform-hint',
  '--enable-features',
  '--disable-features',
  '--enable-wayland-ime',
  '--lang',
  '--v',
  '--vmodule',
  '--trace-warnings',
  '--allow-file-access-from-files',
];

/**
 * Leeway's own arguments from Electron's `process.argv`: drops the executable (and the app path
 * when run as `electron .`) plus Chromium switches, so `parseArgs` sees only our flags.
 */
export function userArgsFromElectronArgv(argv: readonly string[], defaultApp: boolean): string[] {
  const rest = argv.slice(defaultApp ? 2 : 1);
  return rest.filter((arg) => {
    const name = arg.split('=', 1)[0] ?? arg;
    return !CHROMIUM_SWITCHES.includes(name);
  });
}
