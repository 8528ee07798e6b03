/**
 * Seals connection secrets before they reach SQLite. Two implementations: Electron safeStorage in
 * the app (shell/) and a 0600 key file headless (key-file-box). `kind` tells them apart in logs.
 */
export interface SecretBox {
  readonly kind: string;
  /** Encrypts `plain` into a printable string safe to store in a TEXT column. */
  seal(plain: string): string;
  /** Decrypts what `seal` produced. Throws only on tampered or undecryptable data (corruption). */
  open(sealed: string): string;
}
