import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { app } from 'electron';
import type { EnvVars } from '../kernel/env-vars';
import { decideAutoUpdate, updateConfigPath, type UpdateDecision } from './updater-policy';

/**
 * Checks for an update once, in the background, when the build has a publish config; otherwise
 * does nothing at all (electron-updater is not even loaded). Failures are one log line.
 */
export function startAutoUpdate(env: EnvVars, log: (line: string) => void): UpdateDecision {
  const decision = decideAutoUpdate({
    isPackaged: app.isPackaged,
    platform: process.platform,
    hasUpdateConfig: existsSync(updateConfigPath(process.resourcesPath)),
    appImage: env.APPIMAGE,
    hasPackageType: existsSync(join(process.resourcesPath, 'package-type')),
  });
  if (decision.kind === 'inert') return decision;
  // require, not import(): electron-updater defines autoUpdater as a getter an ESM import cannot see.
  const { autoUpdater } = createRequire(import.meta.url)('electron-updater') as typeof import('electron-updater');
  autoUpdater.checkForUpdatesAndNotify().catch((error: unknown) => {
    log(`Leeway: update check failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  return decision;
}
