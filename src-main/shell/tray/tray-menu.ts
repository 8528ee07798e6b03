import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction } from './tray-actions';
import type { TrayMenuItem } from './tray-template';

/**
 * Turns the serialisable tray template into Electron's menu template, wiring each action to
 * `onAction`. Type-only use of Electron, so it runs (and is tested) in plain Node.
 */
export function toElectronMenu(
  items: readonly TrayMenuItem[],
  onAction: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'submenu':
        return {
          type: 'submenu',
          label: item.label,
          enabled: item.enabled,
          submenu: toElectronMenu(item.submenu, onAction),
        };
      case 'checkbox': {
        const action = item.action;
        return {
          type: 'checkbox',
          label: item.label,
          enabled: item.enabled,
          checked: item.checked,
          click: () => onAction(action),
        };
      }
      case 'normal': {
        const action = item.action;
        return action
          ? { type: 'normal', label: item.label, enabled: item.enabled, click: () => onAction(action) }
          : { type: 'normal', label: item.label, enabled: item.enabled };
      }
    }
  });
}
