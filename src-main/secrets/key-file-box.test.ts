import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyFileSecretBox } from './key-file-box';

const posix = process.platform !== 'win32';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-box-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const SECRET = 'sk-ant-api03-THIS-IS-A-TEST-SECRET-0123456789';

/** Flips one bit in one base64 field of a sealed value. */
function tamper(sealed: string, field: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[field] ?? '', 'base64');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  parts[field] = bytes.toString('base64');
  return parts.join(':');
}

describe('createKeyFileSecretBox', () => {
  it('PROD-3: seals and opens a secret round trip, including non-ASCII text', () => {
    const box = createKeyFileSecretBox(tempDir());
    expect(box.kind).toBe('key-file');
    expect(box.open(box.seal(SECRET))).toBe(SECRET);
    expect(box.open(box.seal('ключ 🔑'))).toBe('ключ 🔑');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('PROD-3: produces v1:<iv>:<tag>:<ciphertext> that does not contain the plain text', () => {
    const sealed = createKeyFileSecretBox(tempDir()).seal(SECRET);
    const [version, iv, tag, data] = sealed.split(':');
    expect(version).toBe('v1');
    expect(Buffer.from(iv ?? '', 'base64')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(data ?? '', 'base64')).toHaveLength(Buffer.byteLength(SECRET));
    expect(sealed).not.toContain('THIS-IS-A-TEST');
  });

  it('PROD-3: seals the same input differently every time (fresh IV)', () => {
    const box = createKeyFileSecretBox(tempDir());
    const a = box.seal(SECRET);
    const b = box.seal(SECRET);
    expect(a).not.toBe(b);
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
  });

  it('PROD-3: detects tampering with the ciphertext, the tag or the IV without echoing data', () => {
    const box = createKeyFileSecretBox(tempDir());
    const sealed = box.seal(SECRET);
    for (const field of [1, 2, 3]) {
      expect(() => box.open(tamper(sealed, field))).toThrow(/could not be decrypted/);
    }
    expect(() => box.open('v2:' + sealed.slice(3))).toThrow(/malformed/);
    expect(() => box.open('not sealed at all')).toThrow(/malformed/);
    try {
      box.open(tamper(sealed, 3));
    } catch (error) {
      expect(String(error)).not.toContain(sealed.split(':')[3]);
    }
  });

  it('PROD-3: refuses a value sealed under another key file', () => {
    const sealed = createKeyFileSecretBox(tempDir()).seal(SECRET);
    expect(() => createKeyFileSecretBox(tempDir()).open(sealed)).toThrow(/could not be decrypted/);
  });

  it.skipIf(!posix)(
    'PROD-3 (POSIX file modes only; skipped on Windows): creates secret.key as 32 bytes with mode 0600 and leaves no temp file',
    () => {
      const dir = tempDir();
      createKeyFileSecretBox(dir);
      const file = join(dir, 'secret.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file)).toHaveLength(32);
      expect(readdirSync(dir)).toEqual(['secret.key']);
    },
  );

  it.skipIf(!posix)(
    'PROD-3 (POSIX file modes only; skipped on Windows): tightens an existing key file with looser permissions to 0600',
    () => {
      const dir = tempDir();
      createKeyFileSecretBox(dir);
      const file = join(dir, 'secret.key');
      chmodSync(file, 0o644);
      createKeyFileSecretBox(dir);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    },
  );

  it('PROD-3: the key persists: a second box on the same dir opens what the first sealed', () => {
    const dir = tempDir();
    const sealed = createKeyFileSecretBox(dir).seal(SECRET);
    expect(createKeyFileSecretBox(dir).open(sealed)).toBe(SECRET);
  });

  it('PROD-3: creates a missing data directory', () => {
    const dir = join(tempDir(), 'nested', 'data');
    createKeyFileSecretBox(dir);
    expect(existsSync(join(dir, 'secret.key'))).toBe(true);
  });

  it('PROD-3: refuses a truncated key file instead of silently replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret.key'), Buffer.alloc(16), { mode: 0o600 });
    expect(() => createKeyFileSecretBox(dir)).toThrow(/not a 32-byte key/);
    expect(readFileSync(join(dir, 'secret.key'))).toHaveLength(16);
  });
});
