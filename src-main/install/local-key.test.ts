import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_FILE, keyWorks, localKey } from '../../bin/local-key.mjs';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import { startHeadroom, type RunningHeadroom } from '../testing/start-headroom';

/** How `headroom claude` gets a local key for Claude Code (issue 13 §7), against a real core. */
const running: RunningHeadroom[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.stop()));
});

async function headroom(): Promise<RunningHeadroom> {
  const h = await startHeadroom({});
  running.push(h);
  return h;
}

async function keys(h: RunningHeadroom): Promise<LocalKeyView[]> {
  const listed = await h.core.router.call('keys.list', undefined);
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value as LocalKeyView[];
}

async function keyNames(h: RunningHeadroom): Promise<Array<[string, boolean]>> {
  return (await keys(h)).map((k) => [k.name, k.revokedAt === null]);
}

describe('the local key of headroom claude', () => {
  it('PROD-12: the first run creates "headroom-cli" through the admin API and keeps it (0600) in the data dir; later runs reuse it', async () => {
    const h = await headroom();
    const lines: string[] = [];
    const options = {
      env: { HEADROOM_ADMIN_TOKEN: h.adminToken },
      dataDir: h.dataDir,
      proxyUrl: h.url,
      log: (l: string) => lines.push(l),
    };
    const key = await localKey(options);
    expect(await keyWorks(h.url, key)).toBe(true);
    const file = join(h.dataDir, KEY_FILE);
    expect(readFileSync(file, 'utf8')).toBe(`${key}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines).toEqual([`Headroom: created the local key "headroom-cli" for headroom claude (kept in ${file})`]);
    expect(await localKey(options)).toBe(key);
    expect(lines).toHaveLength(1);
    expect(await keyNames(h)).toEqual(expect.arrayContaining([['headroom-cli', true]]));
  });

  it('PROD-12: a kept key that was revoked is replaced by a new one under the next free name', async () => {
    const h = await headroom();
    const options = {
      env: { HEADROOM_ADMIN_TOKEN: h.adminToken },
      dataDir: h.dataDir,
      proxyUrl: h.url,
      log: () => undefined,
    };
    const first = await localKey(options);
    const id = (await keys(h)).find((k) => k.name === 'headroom-cli')?.id;
    expect((await h.core.router.call('keys.revoke', { id })).ok).toBe(true);
    const second = await localKey(options);
    expect(second).not.toBe(first);
    expect(await keyWorks(h.url, second)).toBe(true);
    expect(await keyNames(h)).toEqual(
      expect.arrayContaining([
        ['headroom-cli', false],
        ['headroom-cli-2', true],
      ]),
    );
  });

  it('PROD-12: HEADROOM_KEY wins when it is a valid key, and is refused by name when it is not', async () => {
    const h = await headroom();
    const log = () => undefined;
    expect(await localKey({ env: { HEADROOM_KEY: h.key }, dataDir: h.dataDir, proxyUrl: h.url, log })).toBe(h.key);
    await expect(
      localKey({ env: { HEADROOM_KEY: 'hr-not-a-key-of-this-headroom' }, dataDir: h.dataDir, proxyUrl: h.url, log }),
    ).rejects.toThrow('HEADROOM_KEY is not a valid local key of this Headroom');
  });

  it('PROD-18: without the admin token no key is created, and the error says where the token is looked for', async () => {
    const h = await headroom();
    writeFileSync(join(h.dataDir, KEY_FILE), 'hr-stale-key-0000000000\n');
    await expect(localKey({ env: {}, dataDir: h.dataDir, proxyUrl: h.url, log: () => undefined })).rejects.toThrow(
      /no admin token \(HEADROOM_ADMIN_TOKEN or .*admin-token\)/,
    );
    await expect(
      localKey({
        env: { HEADROOM_ADMIN_TOKEN: 'wrong-token-0123456789' },
        dataDir: h.dataDir,
        proxyUrl: h.url,
        log: () => undefined,
      }),
    ).rejects.toThrow(/cannot create a local key \(HTTP 401/);
  });
});
