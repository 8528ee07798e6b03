import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestQueueView } from '../../../src-shared/domain/request-queue-view';
import { startFakeUpstream, type FakeUpstream } from '../../testing/fake-upstream';
import { openaiConnection, startLeeway, type RunningLeeway } from '../../testing/start-leeway';

let fakes: FakeUpstream[] = [];
let h: RunningLeeway | null = null;
const envBefore = { ...process.env };
afterEach(async () => {
  await h?.stop();
  h = null;
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
  for (const name of ['RATE_LIMIT_MAX_WAIT_MS', 'RATE_LIMIT_MAX_QUEUE_DEPTH'])
    if (envBefore[name] === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = envBefore[name];
});

function chat(running: RunningLeeway, signal?: AbortSignal) {
  return fetch(`${running.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${running.key}` },
    body: JSON.stringify({ model: 'glm-4.6', messages: [{ role: 'user', content: 'hi' }] }),
    ...(signal ? { signal } : {}),
  });
}

async function queues(running: RunningLeeway): Promise<RequestQueueView[]> {
  const result = await running.core.router.call('queues.list', undefined);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as RequestQueueView[];
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function startGlm(overrides?: Record<string, number>, dataDir?: string) {
  const glm = await startFakeUpstream({ format: 'openai', name: 'glm' });
  fakes.push(glm);
  const connection = {
    ...openaiConnection('glm', glm.url),
    models: ['glm-4.6'],
    maxConcurrent: 1,
    ...(overrides ? { rateLimitOverrides: overrides } : {}),
  };
  h = await startLeeway({ connections: [connection] }, dataDir ? { dataDir } : {});
  return { glm, running: h };
}

describe('request queue through the real proxy', () => {
  it('QUEUE-1, QUEUE-8: maxConcurrent 1 with depth 2 serves one at a time and refuses the overflow at once; queues.list shows the queue', async () => {
    const { glm, running } = await startGlm();
    const stored = await running.core.router.call('resilience.updateSettings', { requestQueue: { maxQueueDepth: 2 } });
    expect(stored.ok).toBe(true);
    glm.enqueue({ kind: 'hang' });
    const first = new AbortController();
    const a = chat(running, first.signal).catch(() => null);
    await glm.waitForRequests(1);
    const b = chat(running);
    const c = chat(running);
    await until(async () => (await queues(running))[0]?.queued === 2, 'two waiting');
    expect(await queues(running)).toMatchObject([{ connection: 'glm', maxConcurrent: 1, queued: 2, inFlight: 1 }]);

    const d = await chat(running);
    expect(d.status).toBe(429);
    expect(d.headers.get('retry-after')).not.toBeNull();
    expect(await d.text()).toContain('RATE_LIMIT_QUEUE_FULL');
    // The overflow never reached the upstream, and the waiting two have not either.
    expect(glm.requests).toHaveLength(1);

    first.abort();
    await a;
    await glm.waitForRequests(2);
    // The second one reached the upstream only once the first had gone.
    expect(glm.requests[0]?.aborted).toBe(true);
    const [rb, rc] = await Promise.all([b, c]);
    expect([rb.status, rc.status]).toEqual([200, 200]);
    await Promise.all([rb.text(), rc.text()]);
    expect(glm.requests).toHaveLength(3);
    const [row] = await queues(running);
    expect(row).toMatchObject({ queued: 0, inFlight: 0 });
    expect(row?.samples).toBeGreaterThanOrEqual(3);
    expect(row?.waitP95Ms).toBeGreaterThan(0);
  });

  it('QUEUE-3: a request that waits past maxWaitMs is refused with RATE_LIMIT_QUEUE_TIMEOUT (503) and never sent upstream', async () => {
    const { glm, running } = await startGlm({ maxWaitMs: 200 });
    glm.enqueue({ kind: 'hang' });
    const first = new AbortController();
    const a = chat(running, first.signal).catch(() => null);
    await glm.waitForRequests(1);
    const late = await chat(running);
    expect(late.status).toBe(503);
    expect(await late.text()).toContain('RATE_LIMIT_QUEUE_TIMEOUT');
    expect(glm.requests).toHaveLength(1);
    first.abort();
    await a;
    // Its slot came back: the next request is served.
    const next = await chat(running);
    expect(next.status).toBe(200);
    await next.text();
  });

  it('QUEUE-7: env < stored < per-connection; with a stored value, changing the env variable has no effect', async () => {
    process.env.RATE_LIMIT_MAX_WAIT_MS = '1500';
    process.env.RATE_LIMIT_MAX_QUEUE_DEPTH = '7';
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-queue-'));
    const { glm, running } = await startGlm(undefined, dataDir);
    expect(await queues(running)).toMatchObject([{ maxWaitMs: 1500, maxQueueDepth: 7 }]);
    await running.core.router.call('resilience.updateSettings', { requestQueue: { maxWaitMs: 45_000 } });
    expect(await queues(running)).toMatchObject([{ maxWaitMs: 45_000, maxQueueDepth: 7 }]);
    await h?.stop();
    // Same data directory, a different env: the stored value still decides.
    process.env.RATE_LIMIT_MAX_WAIT_MS = '2500';
    const connection = { ...openaiConnection('glm', glm.url), models: ['glm-4.6'], maxConcurrent: 1 };
    h = await startLeeway({ connections: [{ ...connection, rateLimitOverrides: { maxQueueDepth: 3 } }] }, { dataDir });
    // The per-connection override (from the config file, stored in SQLite) beats the env's depth.
    expect(await queues(h)).toMatchObject([{ maxWaitMs: 45_000, maxQueueDepth: 3 }]);
    const stored = await h.core.router.call('connections.list', undefined);
    expect(stored.ok && JSON.stringify(stored.value)).toContain('"rateLimitOverrides":{"maxQueueDepth":3}');
    await h.stop();
    h = null;
    rmSync(dataDir, { recursive: true, force: true });
  });
});
