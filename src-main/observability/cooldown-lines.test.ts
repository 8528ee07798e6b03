import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/** Issue 21 §14 through the real proxy: every cooldown is a log line, the second one after the first ran out too. */
const MODEL = 'claude-sonnet-4-6';
let primary: FakeUpstream;
let backup: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  primary = await startFakeUpstream({ format: 'anthropic', name: 'primary' });
  backup = await startFakeUpstream({ format: 'anthropic', name: 'backup' });
  h = await startLeeway({
    connections: [
      anthropicConnection('primary', primary.url, { models: [MODEL], priority: 1 }),
      anthropicConnection('backup', backup.url, { models: [MODEL], priority: 2 }),
    ],
  });
});

afterAll(async () => {
  await h.stop();
  await primary.close();
  await backup.close();
});

async function ask(): Promise<Response> {
  const res = await fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res;
}

async function primaryCooling(): Promise<boolean> {
  const list = await h.core.router.call('cooldowns.list', {});
  const snapshot = (list.ok ? list.value : null) as CooldownSnapshot | null;
  return snapshot?.connections.find((c) => c.name === 'primary')?.retryAfterMs !== null;
}

const setLines = () => h.lines.filter((line) => line.includes('cooldown set: primary'));

describe('cooldown lines (issue 21 §14)', () => {
  it('issue 21 §14: a connection that cools again after its first cooldown ran out logs a second "cooldown set" line', async () => {
    primary.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    expect((await ask()).headers.get('x-leeway-failover')).toBe('primary=429');
    await expect.poll(setLines, { timeout: 5_000 }).toHaveLength(1);

    await expect.poll(primaryCooling, { timeout: 15_000, interval: 100 }).toBe(false);
    primary.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    expect((await ask()).headers.get('x-leeway-failover')).toBe('primary=429');
    await expect.poll(setLines, { timeout: 5_000 }).toHaveLength(2);
  }, 30_000);
});
