import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The window's web preferences: isolated, sandboxed, no Node (PROD-8, PROD-18). Kept pure so a
 * test can pin every flag without Electron.
 */
export function createWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
  };
}

/** Options for the main window; shown once its first paint is ready. */
export function createWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1180,
    height: 800,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Leeway',
    autoHideMenuBar: true,
    webPreferences: createWebPreferences(preloadPath),
  };
}

/** Only http(s) links leave the app, and they open in the user's browser, never in a window of ours. */
export function isExternalHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
