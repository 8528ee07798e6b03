import { createHash, randomBytes } from 'node:crypto';
import { LOCAL_KEY_PREFIX } from '../../src-shared/domain/local-key';

/** Characters shown in lists to recognise a key: "lw-" plus four random characters. */
export const KEY_PREFIX_LENGTH = 7;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const RANDOM_CHARS = 32;
/** Largest multiple of 62 below 256: bytes at or above it are dropped so every char is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** A fresh local API key: `lw-` + 32 base62 characters (~190 bits) from the CSPRNG. */
export function generateLocalKey(): string {
  let out = LOCAL_KEY_PREFIX;
  while (out.length < LOCAL_KEY_PREFIX.length + RANDOM_CHARS) {
    for (const byte of randomBytes(RANDOM_CHARS)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += ALPHABET[byte % ALPHABET.length] ?? '';
      if (out.length === LOCAL_KEY_PREFIX.length + RANDOM_CHARS) break;
    }
  }
  return out;
}

/** What is stored and looked up instead of the key: SHA-256, lowercase hex. */
export function hashLocalKey(plainKey: string): string {
  return createHash('sha256').update(plainKey, 'utf8').digest('hex');
}
