import { join } from 'node:path';
import type { TrayState } from './tray-state';

/**
 * The tray icon of a state (issue 13 §8): a glyph per state (scripts/make-icons.mjs), so the state
 * reads without colour. macOS gets the `…Template.png` variant, black on transparent, which Electron
 * marks as a template image by its name so the menu bar tints it (light, dark, highlighted); other
 * platforms get the glyph in the state's colour. Electron picks each `@2x` sibling by itself.
 */
export function trayGlyphIconPath(dir: string, state: TrayState, platform: NodeJS.Platform): string {
  return join(dir, platform === 'darwin' ? `${state}Template.png` : `${state}.png`);
}

/** Every file build/tray must hold for one state. */
export function trayIconFiles(state: TrayState): string[] {
  return [`${state}.png`, `${state}@2x.png`, `${state}Template.png`, `${state}Template@2x.png`];
}
