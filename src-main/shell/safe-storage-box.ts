import { safeStorage } from 'electron';
import type { SecretBox } from '../secrets/secret-box';

/**
 * Secrets sealed with the OS keychain via Electron safeStorage. Returns undefined when the OS offers
 * no real encryption (e.g. Linux without a keyring), so the core falls back to its key file.
 */
export function createSafeStorageBox(): SecretBox | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return undefined;
  return {
    kind: 'electron-safe-storage',
    seal: (plain) => safeStorage.encryptString(plain).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
