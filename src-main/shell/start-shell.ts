import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, shell } from 'electron';
import { IPC_EVENT_CHANNEL } from '../../src-shared/contract/bridge';
import { parseArgs, usage, type CliOptions } from '../cli/parse-args';
import { createCore } from '../core/core';
import { readEnv, type Env } from '../core/env';
import { LOGS_DIR } from '../observability/observability';
import { startAutoUpdate } from './updater';
import { hardenSession } from './harden-session';
import { registerIpc } from './ipc';
import { createLoginItem } from './login-item/electron-login-item';
import { createMainWindow, revealWindow } from './main-window';
import { createNotifier } from './notifications/notifier';
import { showNotification } from './notifications/show-notification';
import { createSafeStorageBox } from './safe-storage-box';
import { userArgsFromElectronArgv } from './shell-argv';
import { createTrayController } from './tray/tray-controller';
import { trayIconDir } from './tray/tray-icons';

type Core = ReturnType<typeof createCore>;

interface ShellState {
  core: Core | null;
  window: BrowserWindow | null;
  /** Shows the window, creating it if needed; set once the core runs. */
  openWindow: () => void;
  /** Stops the tray and the notifier; set once they run. */
  teardown: () => void;
}

// Built layout: out/main/main.js, out/preload/preload.cjs, out/renderer/index.html.
const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '../renderer');
const windowPaths = {
  preload: path.join(here, '../preload/preload.cjs'),
  indexHtml: path.join(rendererDir, 'index.html'),
};

let quitting = false;

function fatal(title: string, message: string, code: number): void {
  console.error(`Leeway: ${message}`);
  dialog.showErrorBox(title, message);
  app.exit(code);
}

function readOptions(env: Env): CliOptions | null {
  const argv = userArgsFromElectronArgv(process.argv, process.defaultApp === true);
  const parsed = parseArgs(argv, env.vars, { dataDir: app.getPath('userData') });
  if (!parsed.ok) {
    fatal('Leeway: invalid options', `${parsed.errors.join('\n')}\n\n${usage()}`, 2);
    return null;
  }
  if (parsed.value.help) {
    console.log(usage());
    app.exit(0);
    return null;
  }
  for (const warning of parsed.value.warnings) console.warn(`Leeway: ${warning}`);
  return parsed.value;
}

async function run(options: CliOptions, env: Env, state: ShellState): Promise<void> {
  hardenSession();
  const secretBox = createSafeStorageBox();
  const core = createCore({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    mode: 'electron',
    env,
    rendererDir,
    logLevel: options.logLevel,
    ...(options.adminPort !== undefined ? { adminPort: options.adminPort } : {}),
    ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
    ...(secretBox !== undefined ? { secretBox } : {}),
  });
  state.core = core;
  const started = await core.start();
  if (!started.ok) {
    state.core = null;
    await core.stop().catch(() => {});
    fatal('Leeway could not start', started.error.message, 1);
    return;
  }
  console.log(`Leeway: proxy ${started.value.proxyUrl} — dashboard ${started.value.dashboardUrl}`);
  // Inert without a publish config (no network, no error): see updater-policy.ts.
  startAutoUpdate(env.vars, (line) => console.log(line));

  const log = (line: string): void => console.warn(line);
  registerIpc({
    router: core.router,
    windowWebContentsId: () => (state.window && !state.window.isDestroyed() ? state.window.webContents.id : null),
    log,
  });
  core.events.subscribe((event) => {
    const win = state.window;
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  const openWindow = (): void => {
    if (!state.window || state.window.isDestroyed()) state.window = createMainWindow(windowPaths, () => quitting);
    else revealWindow(state.window);
  };
  state.openWindow = openWindow;
  const subscribe = core.events.subscribe;
  const logsDir = path.join(options.dataDir, LOGS_DIR);
  const tray = startTray(core, env, subscribe, openWindow, () => shell.openPath(logsDir), log);
  const notifier = createNotifier({ router: core.router, subscribe, show: (n) => showNotification(n, openWindow) });
  void notifier.start().catch(() => log('Leeway: notifications could not read the core'));
  state.teardown = () => {
    notifier.stop();
    tray?.destroy();
  };
  if (!options.headless) state.window = createMainWindow(windowPaths, () => quitting);
}

/** The tray; where the desktop offers none, the app still runs and the window stays reachable by relaunching. */
function startTray(
  core: Core,
  env: Env,
  subscribe: Core['events']['subscribe'],
  openWindow: () => void,
  openLogs: () => Promise<string>,
  log: (line: string) => void,
) {
  try {
    const tray = createTrayController({
      router: core.router,
      subscribe,
      iconDir: trayIconDir({
        isPackaged: app.isPackaged,
        resourcesPath: process.resourcesPath,
        appPath: app.getAppPath(),
      }),
      loginItem: createLoginItem(env.vars),
      openWindow,
      openLogs,
      quit: () => app.quit(),
      log,
    });
    void tray.start().catch(() => log('Leeway: the tray could not read the core'));
    return tray;
  } catch (error) {
    log(`Leeway: no tray icon (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

/** Electron entry: one instance, the core started, one window, and a clean stop on quit. */
export function startShell(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Issue 22: the environment is read here once and passed down; nothing below reads the environment itself.
  const env = readEnv(process.env);
  const options = readOptions(env);
  if (!options) return;
  const state: ShellState = { core: null, window: null, openWindow: () => {}, teardown: () => {} };

  // Launching Leeway again (or clicking the dock icon) brings the window back.
  app.on('second-instance', () => state.openWindow());
  app.on('activate', () => state.openWindow());
  // The window only hides, so this fires only while quitting; keep the app (and the proxy) alive otherwise.
  app.on('window-all-closed', () => {});
  app.on('before-quit', () => {
    quitting = true;
  });

  let stopped = false;
  app.on('will-quit', (event) => {
    const core = state.core;
    if (stopped || !core) return;
    event.preventDefault();
    stopped = true;
    state.teardown();
    // Quitting drains like Ctrl-C in headless mode (issue 21 §9): requests in flight get the grace.
    void core
      .stop({ graceMs: options.shutdownGraceMs })
      .catch((error: unknown) => console.error('Leeway: error while stopping', error))
      .finally(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app
    .whenReady()
    .then(() => run(options, env, state))
    .catch((error: unknown) =>
      fatal('Leeway could not start', error instanceof Error ? error.message : String(error), 1),
    );
}
