import { join } from 'node:path';

/** Whether the app asks for updates, and if not, why (shown in the log, never as an error). */
export type UpdateDecision = { kind: 'check' } | { kind: 'inert'; reason: string };

/** What the decision reads; the glue in updater.ts gathers it from Electron and the file system. */
export interface UpdateFacts {
  isPackaged: boolean;
  platform: string;
  /** `resources/app-update.yml`: electron-builder writes it only when the build has a `publish` config. */
  hasUpdateConfig: boolean;
  /** Linux: set when running as an AppImage (the AppImage runtime exports APPIMAGE). */
  appImage: string | undefined;
  /** Linux: `resources/package-type`, which electron-builder writes into deb/rpm/pacman packages. */
  hasPackageType: boolean;
}

/** Where electron-updater looks for the publish config of a packaged app. */
export function updateConfigPath(resourcesPath: string): string {
  return join(resourcesPath, 'app-update.yml');
}

/**
 * Auto-update is inert unless the build says where updates live: no publish config means no network
 * request and no error (issue 13 §7). Runs from source and unpacked `--dir` builds on Linux never update.
 */
export function decideAutoUpdate(facts: UpdateFacts): UpdateDecision {
  if (!facts.isPackaged) return { kind: 'inert', reason: 'running from source' };
  if (!facts.hasUpdateConfig) return { kind: 'inert', reason: 'this build has no publish configuration' };
  if (facts.platform === 'linux' && !facts.appImage && !facts.hasPackageType) {
    return { kind: 'inert', reason: 'not an AppImage or a package: nothing to update in place' };
  }
  return { kind: 'check' };
}
