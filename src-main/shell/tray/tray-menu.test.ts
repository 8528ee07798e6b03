import { describe, expect, it } from 'vitest';
import type { TrayAction } from './tray-actions';
import { toElectronMenu } from './tray-menu';
import type { TrayMenuItem } from './tray-template';

describe('toElectronMenu', () => {
  it('PROD-4: keeps labels, types, enabled and checked, nests submenus and wires each action to its click', () => {
    const template: TrayMenuItem[] = [
      { type: 'normal', label: 'Leeway — serving', enabled: false },
      { type: 'separator' },
      {
        type: 'submenu',
        label: 'Cooling (1)',
        enabled: true,
        submenu: [
          {
            type: 'normal',
            label: 'Clear cooldown',
            enabled: true,
            action: { kind: 'clear-connection', connection: 'a' },
          },
        ],
      },
      { type: 'checkbox', label: 'Start at login', enabled: true, checked: true, action: { kind: 'toggle-login' } },
    ];
    const clicked: TrayAction[] = [];
    const menu = toElectronMenu(template, (action) => clicked.push(action));
    expect(menu.map(({ type, label, enabled, checked }) => ({ type, label, enabled, checked }))).toEqual([
      { type: 'normal', label: 'Leeway — serving', enabled: false, checked: undefined },
      { type: 'separator', label: undefined, enabled: undefined, checked: undefined },
      { type: 'submenu', label: 'Cooling (1)', enabled: true, checked: undefined },
      { type: 'checkbox', label: 'Start at login', enabled: true, checked: true },
    ]);
    expect(menu[0]?.click).toBeUndefined();
    const submenu = menu[2]?.submenu;
    if (!Array.isArray(submenu)) throw new Error('submenu expected');
    type Click = (...args: unknown[]) => void;
    (submenu[0]?.click as Click | undefined)?.();
    (menu[3]?.click as Click | undefined)?.();
    expect(clicked).toEqual([{ kind: 'clear-connection', connection: 'a' }, { kind: 'toggle-login' }]);
  });
});
