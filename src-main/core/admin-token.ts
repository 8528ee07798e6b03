import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The admin token: given by the operator, else one random token kept (mode 0600) in the data dir. */
export function resolveAdminToken(dataDir: string, given: string | null | undefined): string {
  if (given && given.length > 0) return given;
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 16) {
      chmodSync(file, 0o600);
      return stored;
    }
  }
  const token = randomBytes(24).toString('base64url');
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, token + '\n', { mode: 0o600 });
  renameSync(temp, file);
  return token;
}
