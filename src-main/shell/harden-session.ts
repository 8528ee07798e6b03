import { app, session, shell } from 'electron';
import { withCspHeader } from './csp';
import { isExternalHttpUrl } from './window-options';

/**
 * Session-wide guards (PROD-8, PROD-18): every response carries our CSP header (file: pages may not
 * get one from Chromium, so the renderer's meta tag stays the first line), every permission request
 * is refused, and every web contents — ours or one that should never exist — may neither navigate,
 * open windows (http(s) links go to the user's browser) nor attach a webview.
 */
export function hardenSession(): void {
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders) });
  });
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isExternalHttpUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}
