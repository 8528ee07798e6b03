import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SecretBox } from './secret-box';

const KEY_FILE = 'secret.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
/** POSIX permission bits are not enforced on Windows; there the user profile ACL protects the file. */
const POSIX = process.platform !== 'win32';

/**
 * A SecretBox for headless runs: AES-256-GCM with a random 12-byte IV per seal and a 32-byte key
 * kept in `<dataDir>/secret.key` (mode 0600). Output: `v1:<iv>:<tag>:<ciphertext>`, all base64.
 */
export function createKeyFileSecretBox(dataDir: string): SecretBox {
  const key = loadOrCreateKey(dataDir);
  return {
    kind: 'key-file',
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
    },
    open(sealed) {
      const [version, iv64, tag64, data64, ...rest] = sealed.split(':');
      if (version !== VERSION || iv64 === undefined || tag64 === undefined || data64 === undefined || rest.length > 0) {
        throw new Error('sealed secret is malformed');
      }
      const iv = Buffer.from(iv64, 'base64');
      const tag = Buffer.from(tag64, 'base64');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('sealed secret is malformed');
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(Buffer.from(data64, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        // Never echo the sealed text or the key: the message is all a log line gets.
        throw new Error('sealed secret could not be decrypted (tampered, or sealed with another key)');
      }
    },
  };
}

/** Reads the key file, tightening loose permissions, or creates it atomically. */
function loadOrCreateKey(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, KEY_FILE);
  const existing = readKeyIfPresent(file);
  if (existing) return existing;

  const key = randomBytes(KEY_BYTES);
  // Write a temp file and rename it over: a crash mid-write leaves a stray .tmp, never a half key.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, key);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return key;
}

function readKeyIfPresent(file: string): Buffer | null {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (POSIX && (mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = readFileSync(file);
  // A wrong-sized key would decrypt nothing; refuse loudly rather than mint a new one and orphan
  // every stored secret.
  if (key.length !== KEY_BYTES)
    throw new Error(`${file} is not a ${KEY_BYTES}-byte key; restore it or delete it and re-enter secrets`);
  return key;
}
