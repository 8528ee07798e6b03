import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscoveredModelsView } from '../../src-shared/contract/methods';
import { findClaudeBinary, runClaude } from '../testing/clients/claude-code-binary';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/*
 * Issue 13 §5 through the real proxy: connections with no `models` list are asked for their
 * upstream's own list (start, Test, hourly), and `/v1/models` then names those ids in both shapes.
 * `startLeeway` keeps discovery off unless asked, so other suites' fakes see only their requests.
 */
const DISCOVERY_ON = { modelDiscovery: true, rendererDir: null };
const CLAUDE_IDS = ['claude-sonnet-4-6', 'claude-opus-4-7'];
const GLM_IDS = ['glm-4.6', 'glm-4.5-air'];

const fakes: FakeUpstream[] = [];
let running: RunningLeeway[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.stop()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function upstreams() {
  const claude = await startFakeUpstream({ format: 'anthropic', name: 'claude', models: CLAUDE_IDS });
  const glm = await startFakeUpstream({ format: 'openai', name: 'glm', models: GLM_IDS });
  fakes.push(claude, glm);
  return { claude, glm };
}

function config(claude: FakeUpstream, glm: FakeUpstream) {
  // No `models` on either: both serve any model, so only discovery can name what they have.
  return { connections: [anthropicConnection('a1', claude.url), openaiConnection('g1', glm.url, { priority: 2 })] };
}

async function start(cfg: Record<string, unknown>, extra: Parameters<typeof startLeeway>[1] = {}) {
  const h = await startLeeway(cfg, extra);
  running.push(h);
  return h;
}

async function modelIds(h: RunningLeeway, shape: 'anthropic' | 'openai'): Promise<string[]> {
  const headers: Record<string, string> = { 'x-api-key': h.key };
  if (shape === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  const res = await fetch(`${h.url}/v1/models`, { headers });
  const body = (await res.json()) as { data: { id: string }[] };
  return body.data.map((m) => m.id).sort();
}

async function waitForIds(h: RunningLeeway, expected: string[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  let have: string[] = [];
  while (Date.now() < deadline) {
    have = await modelIds(h, 'openai');
    if (expected.every((id) => have.includes(id))) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`models never listed: ${expected.join(', ')} (have ${have.join(', ')})`);
}

async function discovered(h: RunningLeeway, connection: string): Promise<DiscoveredModelsView | undefined> {
  const result = await h.core.router.call('models.discovered', { connection });
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as DiscoveredModelsView[])[0];
}

describe('model discovery through the proxy (issue 13 §5)', () => {
  it('PROD-10: ids discovered at start are listed by /v1/models in both shapes; the SDKs list (and page) them', async () => {
    const { claude, glm } = await upstreams();
    const h = await start(config(claude, glm), DISCOVERY_ON);
    await waitForIds(h, [...CLAUDE_IDS, ...GLM_IDS]);
    expect(claude.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models?limit=1000' });
    expect(claude.requests[0]?.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');
    expect(glm.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });

    const all = [...CLAUDE_IDS, ...GLM_IDS].sort();
    expect(await modelIds(h, 'anthropic')).toEqual(all);
    expect(await modelIds(h, 'openai')).toEqual(all);
    // The Anthropic SDK pages with limit/after_id until has_more is false.
    const anthropic = new Anthropic({ baseURL: h.url, apiKey: h.key, maxRetries: 0 });
    const paged: { id: string; display_name: string }[] = [];
    for await (const m of anthropic.models.list({ limit: 2 })) paged.push(m);
    expect(paged.map((m) => m.id).sort()).toEqual(all);
    expect(paged.find((m) => m.id === 'claude-opus-4-7')?.display_name).toBe('Claude Opus 4.7');
    const openai = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.key, maxRetries: 0 });
    const listed: string[] = [];
    for await (const m of openai.models.list()) listed.push(m.id);
    expect(listed.sort()).toEqual(all);
    expect(await discovered(h, 'g1')).toMatchObject({
      discoverable: true,
      lastError: null,
      models: GLM_IDS.map((id) => ({ id })),
    });
  });

  it('PROD-5: with automatic discovery off nothing is asked at start; "Test" discovers, and a failed refresh keeps the last list', async () => {
    const { claude, glm } = await upstreams();
    const h = await start(config(claude, glm));
    expect(claude.requests).toHaveLength(0);
    expect(await modelIds(h, 'openai')).toEqual([]);
    expect(await h.core.router.call('connections.test', { name: 'g1' })).toMatchObject({
      ok: true,
      value: { ok: true },
    });
    expect(await modelIds(h, 'openai')).toEqual([...GLM_IDS].sort());

    glm.setDefault({ kind: 'status', status: 503 });
    expect(await h.core.router.call('connections.test', { name: 'g1' })).toMatchObject({
      ok: true,
      value: { ok: false, status: 503 },
    });
    expect(await modelIds(h, 'openai')).toEqual([...GLM_IDS].sort());
    const view = await discovered(h, 'g1');
    expect(view?.lastError).toBe('Upstream answered 503');
    expect(view?.models.map((m) => m.id)).toEqual(GLM_IDS);
  });

  it('a restart lists the persisted ids before any refresh (here none: the upstream is gone and discovery is off)', async () => {
    const { claude, glm } = await upstreams();
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-disc-'));
    dirs.push(dataDir);
    const first = await start(config(claude, glm), { dataDir });
    await first.core.router.call('connections.test', { name: 'a1' });
    expect(await modelIds(first, 'anthropic')).toEqual([...CLAUDE_IDS].sort());
    await first.stop();
    running = running.filter((r) => r !== first);
    await claude.close();
    const again = await start(config(claude, glm), { dataDir });
    expect(await modelIds(again, 'anthropic')).toEqual([...CLAUDE_IDS].sort());
  });

  it('PROD-10: a discovered id reaches the connection that listed it, across formats (translated)', async () => {
    const { claude, glm } = await upstreams();
    glm.setDefault({ kind: 'ok', text: 'from glm' });
    const h = await start(config(claude, glm));
    await h.core.router.call('connections.test', { name: 'g1' });
    const res = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': h.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'glm-4.6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('g1');
    expect(res.headers.get('x-leeway-translated')).toBe('anthropic->openai');
    expect(claude.requests).toHaveLength(0);
  });

  const binary = findClaudeBinary();
  it.skipIf(!binary)(
    "PROD-10: Claude Code's /model list (gateway discovery) offers an any-model connection's discovered Claude ids",
    async () => {
      const { claude, glm } = await upstreams();
      const h = await start(config(claude, glm));
      await h.core.router.call('connections.test', { name: 'a1' });
      await h.core.router.call('connections.test', { name: 'g1' });
      const home = mkdtempSync(join(tmpdir(), 'leeway-claude-home-'));
      dirs.push(home);
      const run = await runClaude(binary ?? '', ['-p', 'say hi'], {
        baseUrl: h.url,
        apiKey: '',
        home,
        env: {
          ANTHROPIC_API_KEY: '',
          ANTHROPIC_AUTH_TOKEN: h.key,
          CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '',
        },
        timeoutMs: 60_000,
      });
      expect(run.code).toBe(0);
      const cache = join(home, '.claude', 'cache', 'gateway-models.json');
      expect(existsSync(cache)).toBe(true);
      const cached = JSON.parse(readFileSync(cache, 'utf8')) as { models: { id: string; display_name?: string }[] };
      expect(cached.models.map((m) => m.id).sort()).toEqual([...CLAUDE_IDS].sort());
      expect(cached.models.find((m) => m.id === 'claude-sonnet-4-6')?.display_name).toBe('Claude Sonnet 4.6');
    },
    90_000,
  );
});
