import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, shell } from 'electron';
import { IPC_EVENT_CHANNEL } from '../../src-shared/contract/bridge';
import { parseArgs, usage, type CliOptions } from '../cli/parse-args';
import { createCore } from '../core';
import { registerIpc } from './ipc';
import { createSafeStorageBox } from './safe-storage-box';
import { userArgsFromElectronArgv } from './shell-argv';
import { createWindowOptions, isExternalHttpUrl } from './window-options';

type Core = ReturnType<typeof createCore>;

// Built layout: out/main/main.js, out/preload/preload.cjs, out/renderer/index.html.
const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../preload/preload.cjs');
const rendererDir = path.join(here, '../renderer');

let quitting = false;

function fatal(title: string, message: string, code: number): void {
  console.error(`Headroom: ${message}`);
  dialog.showErrorBox(title, message);
  app.exit(code);
}

function readOptions(): CliOptions | null {
  const argv = userArgsFromElectronArgv(process.argv, process.defaultApp === true);
  const parsed = parseArgs(argv, process.env, { dataDir: app.getPath('userData') });
  if (!parsed.ok) {
    fatal('Headroom: invalid options', `${parsed.errors.join('\n')}\n\n${usage()}`, 2);
    return null;
  }
  if (parsed.value.help) {
    console.log(usage());
    app.exit(0);
    return null;
  }
  for (const warning of parsed.value.warnings) console.warn(`Headroom: ${warning}`);
  return parsed.value;
}

/** Creates the main window; closing it hides it so the proxy keeps serving. */
function createMainWindow(isQuitting: () => boolean): BrowserWindow {
  const win = new BrowserWindow(createWindowOptions(preloadPath));
  win.once('ready-to-show', () => win.show());
  win.on('close', (event) => {
    if (isQuitting()) return;
    event.preventDefault();
    win.hide();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalHttpUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  void win.loadFile(path.join(rendererDir, 'index.html'));
  return win;
}

async function run(options: CliOptions, state: { core: Core | null; window: BrowserWindow | null }): Promise<void> {
  const secretBox = createSafeStorageBox();
  const core = createCore({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    allowRemote: options.allowRemote,
    mode: 'electron',
    rendererDir,
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
    fatal('Headroom could not start', started.error.message, 1);
    return;
  }
  console.log(`Headroom: proxy ${started.value.proxyUrl} — dashboard ${started.value.dashboardUrl}`);

  registerIpc(core.router, () => (state.window && !state.window.isDestroyed() ? state.window.webContents.id : null));
  core.events.subscribe((event) => {
    const win = state.window;
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  if (!options.headless) state.window = createMainWindow(() => quitting);
}

/** Electron entry: one instance, the core started, one window, and a clean stop on quit. */
export function startShell(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const options = readOptions();
  if (!options) return;
  const state: { core: Core | null; window: BrowserWindow | null } = { core: null, window: null };

  app.on('second-instance', () => {
    const win = state.window;
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  app.on('activate', () => state.window?.show());
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
    void core
      .stop()
      .catch((error: unknown) => console.error('Headroom: error while stopping', error))
      .finally(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app
    .whenReady()
    .then(() => run(options, state))
    .catch((error: unknown) =>
      fatal('Headroom could not start', error instanceof Error ? error.message : String(error), 1),
    );
}
