import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_FILE, keyWorks, localKey } from '../../bin/local-key.mjs';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import { startLeeway, type RunningLeeway } from '../testing/start-leeway';

/** How `leeway claude` gets a local key for Claude Code (issue 13 §7), against a real core. */
const running: RunningLeeway[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.stop()));
});

async function leeway(): Promise<RunningLeeway> {
  const h = await startLeeway({});
  running.push(h);
  return h;
}

async function keys(h: RunningLeeway): Promise<LocalKeyView[]> {
  const listed = await h.core.router.call('keys.list', undefined);
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value as LocalKeyView[];
}

async function keyNames(h: RunningLeeway): Promise<Array<[string, boolean]>> {
  return (await keys(h)).map((k) => [k.name, k.revokedAt === null]);
}

describe('the local key of leeway claude', () => {
  it('PROD-12: the first run creates "leeway-cli" through the admin API and keeps it (0600) in the data dir; later runs reuse it', async () => {
    const h = await leeway();
    const lines: string[] = [];
    const options = {
      env: { LEEWAY_ADMIN_TOKEN: h.adminToken },
      dataDir: h.dataDir,
      proxyUrl: h.url,
      log: (l: string) => lines.push(l),
    };
    const key = await localKey(options);
    expect(await keyWorks(h.url, key)).toBe(true);
    const file = join(h.dataDir, KEY_FILE);
    expect(readFileSync(file, 'utf8')).toBe(`${key}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines).toEqual([`Leeway: created the local key "leeway-cli" for leeway claude (kept in ${file})`]);
    expect(await localKey(options)).toBe(key);
    expect(lines).toHaveLength(1);
    expect(await keyNames(h)).toEqual(expect.arrayContaining([['leeway-cli', true]]));
  });

  it('PROD-12: a kept key that was revoked is replaced by a new one under the next free name', async () => {
    const h = await leeway();
    const options = {
      env: { LEEWAY_ADMIN_TOKEN: h.adminToken },
      dataDir: h.dataDir,
      proxyUrl: h.url,
      log: () => undefined,
    };
    const first = await localKey(options);
    const id = (await keys(h)).find((k) => k.name === 'leeway-cli')?.id;
    expect((await h.core.router.call('keys.revoke', { id })).ok).toBe(true);
    const second = await localKey(options);
    expect(second).not.toBe(first);
    expect(await keyWorks(h.url, second)).toBe(true);
    expect(await keyNames(h)).toEqual(
      expect.arrayContaining([
        ['leeway-cli', false],
        ['leeway-cli-2', true],
      ]),
    );
  });

  it('PROD-12: LEEWAY_KEY wins when it is a valid key, and is refused by name when it is not', async () => {
    const h = await leeway();
    const log = () => undefined;
    expect(await localKey({ env: { LEEWAY_KEY: h.key }, dataDir: h.dataDir, proxyUrl: h.url, log })).toBe(h.key);
    await expect(
      localKey({ env: { LEEWAY_KEY: 'lw-not-a-key-of-this-leeway' }, dataDir: h.dataDir, proxyUrl: h.url, log }),
    ).rejects.toThrow('LEEWAY_KEY is not a valid local key of this Leeway');
  });

  it('PROD-18: without the admin token no key is created, and the error says where the token is looked for', async () => {
    const h = await leeway();
    writeFileSync(join(h.dataDir, KEY_FILE), 'lw-stale-key-0000000000\n');
    await expect(localKey({ env: {}, dataDir: h.dataDir, proxyUrl: h.url, log: () => undefined })).rejects.toThrow(
      /no admin token \(LEEWAY_ADMIN_TOKEN or .*admin-token\)/,
    );
    await expect(
      localKey({
        env: { LEEWAY_ADMIN_TOKEN: 'wrong-token-0123456789' },
        dataDir: h.dataDir,
        proxyUrl: h.url,
        log: () => undefined,
      }),
    ).rejects.toThrow(/cannot create a local key \(HTTP 401/);
  });
});
