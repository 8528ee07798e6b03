import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnHeadless, type HeadlessProcess } from '../crash/headless-process';
import { TEST_ADMIN_TOKEN, TEST_LOCAL_KEY } from '../start-leeway';

/** Issue 24 §4: what the two-process team tests share — a member process, its admin RPC, a client call, a poll. */

const dirs: string[] = [];

/** Starts a headless Leeway with its own data dir and `config`, on the team's Redis. */
export async function startTeamMember(config: unknown, redisUrl: string): Promise<HeadlessProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-team-'));
  dirs.push(dir);
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  return spawnHeadless({
    dataDir: join(dir, 'data'),
    configFile,
    adminToken: TEST_ADMIN_TOKEN,
    env: { QUOTA_STORE_DRIVER: 'redis', QUOTA_STORE_REDIS_URL: redisUrl },
    startTimeoutMs: 60_000,
  });
}

/** Removes every member's data dir (after the members stopped). */
export function removeTeamDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** One contract method over the admin HTTP transport; throws the error's message. */
export async function teamRpc(url: string, method: string, input: unknown): Promise<unknown> {
  const res = await fetch(`${url}/api/rpc/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!body.ok) throw new Error(`${method}: ${body.error?.message ?? res.status}`);
  return body.value;
}

/** One Messages request with the test key; its status and the connection that served it. */
export async function askMember(url: string, model: string): Promise<{ status: number; connection: string | null }> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_LOCAL_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return { status: res.status, connection: res.headers.get('x-leeway-connection') };
}

/** Polls `check` every 50 ms; the error names what was awaited (a function: read when it times out). */
export async function poll(
  check: () => Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
