import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import { toRuntimeConnection } from '../routing/build-catalog';
import { reservePort, startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { MAX_PAGES } from './models-discovery';
import { listUpstreamModels } from './models-discovery-fetch';
import { createUpstreamPools, type UpstreamPools } from './upstream-pools';

/**
 * Anthropic's `GET /v1/models` as the real API pages it: `limit` (here capped at `pageSize`, as a
 * gateway with small pages would), `after_id`, and `{data, has_more, first_id, last_id}`;
 * `x-api-key` and `anthropic-version` required. `loopAt` makes a broken server repeat a cursor.
 */
async function startPagedAnthropic(ids: string[], pageSize: number, options: { loopAt?: number } = {}) {
  const seen: { path: string; headers: IncomingMessage['headers'] }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.headers['x-api-key'] !== 'sk-ant-key' || !req.headers['anthropic-version']) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
      return;
    }
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), pageSize);
    const after = url.searchParams.get('after_id');
    let start = after === null ? 0 : ids.indexOf(after) + 1;
    if (options.loopAt !== undefined && start > options.loopAt) start = 0;
    const page = ids.slice(start, start + limit);
    const data = page.map((id) => ({
      type: 'model',
      id,
      display_name: id.toUpperCase(),
      created_at: '2025-10-01T00:00:00Z',
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        data,
        has_more: options.loopAt !== undefined || start + limit < ids.length,
        first_id: page[0] ?? null,
        last_id: page.at(-1) ?? null,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function connection(kind: ConnectionView['kind'], baseUrl: string, apiKey: string) {
  const view: ConnectionView = {
    id: 'c1',
    name: 'up',
    kind,
    baseUrl,
    effectiveBaseUrl: baseUrl,
    models: [],
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: null,
    createdAt: 0,
    updatedAt: 0,
  };
  return toRuntimeConnection(view, { type: 'api-key', apiKey });
}

let pools: UpstreamPools;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await pools.close();
});

describe('listUpstreamModels (issue 13 §5)', () => {
  it("follows Anthropic's pagination (has_more, after_id = last_id) to the whole list", async () => {
    pools = createUpstreamPools();
    const ids = Array.from({ length: 7 }, (_, i) => `claude-model-${i}`);
    const up = await startPagedAnthropic(ids, 3);
    closers.push(up.close);
    const listing = await listUpstreamModels(pools, connection('anthropic', up.url, 'sk-ant-key'));
    expect(listing.kind).toBe('listed');
    expect(listing.kind === 'listed' && listing.models.map((m) => m.id)).toEqual(ids);
    expect(listing.kind === 'listed' && listing.models[0]).toEqual({
      id: 'claude-model-0',
      displayName: 'CLAUDE-MODEL-0',
      createdAt: Date.parse('2025-10-01T00:00:00Z'),
    });
    expect(up.seen.map((r) => r.path)).toEqual([
      '/v1/models?limit=1000',
      '/v1/models?limit=1000&after_id=claude-model-2',
      '/v1/models?limit=1000&after_id=claude-model-5',
    ]);
    expect(up.seen[0]?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('stops at a repeated cursor and after MAX_PAGES pages, with what it has', async () => {
    pools = createUpstreamPools();
    const ids = Array.from({ length: 5 }, (_, i) => `m${i}`);
    const looping = await startPagedAnthropic(ids, 2, { loopAt: 2 });
    closers.push(looping.close);
    const listing = await listUpstreamModels(pools, connection('anthropic', looping.url, 'sk-ant-key'));
    expect(listing.kind === 'listed' && listing.models.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(looping.seen.length).toBeLessThanOrEqual(MAX_PAGES);
    const long = await startPagedAnthropic(
      Array.from({ length: 100 }, (_, i) => `n${i}`),
      1,
    );
    closers.push(long.close);
    const bounded = await listUpstreamModels(pools, connection('anthropic', long.url, 'sk-ant-key'));
    expect(long.seen).toHaveLength(MAX_PAGES);
    expect(bounded.kind === 'listed' && bounded.models).toHaveLength(MAX_PAGES);
  });

  it("reads an OpenAI-format upstream's <base>/models with its Bearer key", async () => {
    pools = createUpstreamPools();
    const fake: FakeUpstream = await startFakeUpstream({
      format: 'openai',
      apiKey: 'sk-glm-key-0000',
      models: ['glm-4.6', 'glm-4.5-air'],
    });
    closers.push(() => fake.close());
    const listing = await listUpstreamModels(
      pools,
      connection('openai-compatible', `${fake.url}/v1`, 'sk-glm-key-0000'),
    );
    expect(listing.kind === 'listed' && listing.models.map((m) => m.id)).toEqual(['glm-4.6', 'glm-4.5-air']);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-glm-key-0000');
  });

  it('refusals, broken bodies and dead hosts are outcomes, never throws', async () => {
    pools = createUpstreamPools();
    const up = await startPagedAnthropic(['a'], 5);
    closers.push(up.close);
    expect(await listUpstreamModels(pools, connection('anthropic', up.url, 'wrong'))).toMatchObject({
      kind: 'refused',
      status: 401,
    });
    const fake = await startFakeUpstream({ format: 'openai' });
    closers.push(() => fake.close());
    fake.setDefault({ kind: 'status', status: 200, body: '<html>maintenance</html>' });
    const broken = await listUpstreamModels(pools, connection('openai-compatible', `${fake.url}/v1`, 'k'));
    expect(broken).toMatchObject({ kind: 'unparsable', status: 200 });
    const dead = `http://127.0.0.1:${await reservePort()}`;
    expect(await listUpstreamModels(pools, connection('anthropic', dead, 'k'))).toMatchObject({ kind: 'unreachable' });
    const none = toRuntimeConnection(connection('anthropic', up.url, 'k').view, null);
    expect(await listUpstreamModels(pools, none)).toEqual({ kind: 'unsupported', reason: 'no_secret' });
  });
});
