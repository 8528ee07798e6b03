import { clipboard, Menu, nativeImage, Tray } from 'electron';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ContractRouter } from '../contract-call';
import { dispatchTrayAction, type LoginItem, type TrayAction } from './tray-actions';
import { showNotification } from '../notifications/show-notification';
import { trayGlyphIconPath } from './tray-glyph-icons';
import { toElectronMenu } from './tray-menu';
import { createTrayPresenter, type TrayPresenter } from './tray-presenter';
import type { TrayState } from './tray-state';

export interface TrayControllerDeps {
  router: ContractRouter;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  iconDir: string;
  loginItem: LoginItem;
  openWindow(): void;
  /** Opens the logs folder (`shell.openPath`); '' on success, else the error text. */
  openLogs(): Promise<string>;
  quit(): void;
  log(line: string): void;
}

/**
 * Electron glue of the tray (PROD-4): one Tray whose icon follows the state and whose menu is
 * rebuilt from the presenter's template. All decisions live in the pure tray modules.
 */
export function createTrayController(deps: TrayControllerDeps): { start(): Promise<void>; destroy(): void } {
  // A glyph per state (a template image on macOS): the state is told by shape, not colour alone.
  const icon = (state: TrayState) =>
    nativeImage.createFromPath(trayGlyphIconPath(deps.iconDir, state, process.platform));
  const tray = new Tray(icon('serving'));
  tray.setToolTip('Leeway');
  let shownState: TrayState = 'serving';

  const onAction = (action: TrayAction): void => {
    void dispatchTrayAction(action, {
      router: deps.router,
      clipboard: { writeText: (text) => clipboard.writeText(text) },
      openWindow: deps.openWindow,
      openLogs: deps.openLogs,
      loginItem: deps.loginItem,
      quit: deps.quit,
      redraw: () => presenter.redraw(),
      notify: (n) => showNotification(n, deps.openWindow),
    })
      .then((result) => {
        if (!result.ok) deps.log(`Leeway: tray action ${action.kind} failed: ${result.error.code}`);
      })
      .catch(() => deps.log(`Leeway: tray action ${action.kind} failed`));
  };

  const presenter: TrayPresenter = createTrayPresenter({
    router: deps.router,
    subscribe: deps.subscribe,
    loginItem: deps.loginItem,
    log: deps.log,
    render(view) {
      if (tray.isDestroyed()) return;
      if (view.state !== shownState) {
        tray.setImage(icon(view.state));
        shownState = view.state;
      }
      tray.setToolTip(view.tooltip);
      // Linux (AppIndicator) only applies menu changes through a fresh setContextMenu.
      tray.setContextMenu(Menu.buildFromTemplate(toElectronMenu(view.template, onAction)));
    },
  });
  // Windows users expect a left click to open the window; macOS and Linux show the menu instead.
  if (process.platform === 'win32') tray.on('click', () => deps.openWindow());

  return {
    start: () => presenter.start(),
    destroy() {
      presenter.stop();
      if (!tray.isDestroyed()) tray.destroy();
    },
  };
}
