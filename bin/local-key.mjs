// The local key `leeway claude` hands to Claude Code: LEEWAY_KEY, else the one kept in
// <data-dir>/cli-key, else a new one created through the admin API (the admin token is in the data
// dir) and kept there (mode 0600) for the next run. Keys are stored hashed, so Leeway cannot hand
// an existing one back: the launcher keeps its own.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LauncherError } from './entry.mjs';

export const KEY_FILE = 'cli-key';
const KEY_NAMES = ['leeway-cli', ...Array.from({ length: 8 }, (_, i) => `leeway-cli-${i + 2}`)];

const readTrimmed = (file) => {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
};

/** The admin API's origin and token (LEEWAY_ADMIN_TOKEN, else the data dir's file); null without a token. */
export function adminAccess(env, dataDir, proxyUrl) {
  const token = env.LEEWAY_ADMIN_TOKEN?.trim() || readTrimmed(path.join(dataDir, 'admin-token'));
  if (!token) return null;
  const adminPort = env.LEEWAY_ADMIN_PORT?.trim();
  return { url: adminPort ? `http://127.0.0.1:${adminPort}` : proxyUrl, token };
}

/** True when the proxy accepts the key (GET /v1/models answers 200 with it). */
export async function keyWorks(proxyUrl, key) {
  const res = await fetch(`${proxyUrl}/v1/models`, {
    headers: { 'x-api-key': key },
    signal: AbortSignal.timeout(5_000),
  });
  await res.arrayBuffer();
  return res.status === 200;
}

async function createKey(adminUrl, token) {
  for (const name of KEY_NAMES) {
    const res = await fetch(`${adminUrl}/api/rpc/keys.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
      signal: AbortSignal.timeout(5_000),
    });
    const body = await res.json().catch(() => null);
    if (body?.ok === true && typeof body.value?.plainKey === 'string') return { name, key: body.value.plainKey };
    // A revoked key of an earlier run keeps its name: try the next one.
    if (body?.error?.code === 'conflict') continue;
    throw new LauncherError(`cannot create a local key (HTTP ${res.status}: ${body?.error?.message ?? 'no answer'})`);
  }
  throw new LauncherError(`cannot create a local key: the names ${KEY_NAMES[0]}…${KEY_NAMES.at(-1)} are all taken`);
}

/** The key for this run, with where it came from. */
export async function localKey({ env, dataDir, proxyUrl, log }) {
  const given = env.LEEWAY_KEY?.trim();
  if (given) {
    if (!(await keyWorks(proxyUrl, given)))
      throw new LauncherError('LEEWAY_KEY is not a valid local key of this Leeway');
    return given;
  }
  const file = path.join(dataDir, KEY_FILE);
  const kept = readTrimmed(file);
  if (kept && (await keyWorks(proxyUrl, kept))) return kept;
  const admin = adminAccess(env, dataDir, proxyUrl);
  if (!admin)
    throw new LauncherError(
      `no admin token (LEEWAY_ADMIN_TOKEN or ${path.join(dataDir, 'admin-token')}) to create a local key`,
    );
  const created = await createKey(admin.url, admin.token);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${created.key}\n`, { mode: 0o600 });
  renameSync(temp, file);
  log(`Leeway: created the local key "${created.name}" for leeway claude (kept in ${file})`);
  return created.key;
}
