import { describe, expect, it } from 'vitest';
import { createWebPreferences, createWindowOptions, isExternalHttpUrl } from './window-options';

describe('window options', () => {
  it('PROD-8: the window is context-isolated, sandboxed and has no Node integration', () => {
    const prefs = createWebPreferences('/app/out/preload/preload.cjs');
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.preload).toBe('/app/out/preload/preload.cjs');
  });

  it('PROD-8: the BrowserWindow options carry those same web preferences and start hidden', () => {
    const options = createWindowOptions('/p.cjs');
    expect(options.webPreferences).toEqual(createWebPreferences('/p.cjs'));
    expect(options.show).toBe(false);
  });

  it('PROD-18: only http(s) links may be handed to the system browser', () => {
    expect(isExternalHttpUrl('https://docs.anthropic.com/')).toBe(true);
    expect(isExternalHttpUrl('http://127.0.0.1:7431/')).toBe(true);
    expect(isExternalHttpUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isExternalHttpUrl('not a url')).toBe(false);
  });
});
