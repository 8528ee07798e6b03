import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '../../src-shared/contract/errors';
import { METHOD_NAMES, type MethodName } from '../../src-shared/contract/methods';
import { createIpcHandler, type IpcEventLike } from '../shell/ipc-door';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/**
 * PROD-8 / PROD-9: the window's IPC door and the HTTP admin door are two transports of one contract.
 * Two fresh cores start from the same config; the same calls go to one over `POST /api/rpc/:method`
 * and to the other through the IPC handler (with a trusted fake sender), in lockstep, and the
 * Results must match once ids, times, ports and random keys are normalised.
 */

type Door = (method: string, input: unknown) => Promise<Result<unknown>>;

function httpDoor(h: RunningLeeway): Door {
  return async (method, input) => {
    const res = await fetch(`${h.url}/api/rpc/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
      ...(input === undefined ? {} : { body: JSON.stringify(input) }),
    });
    return (await res.json()) as Result<unknown>;
  };
}

const WINDOW_ID = 1;
const trustedEvent: IpcEventLike = {
  sender: { id: WINDOW_ID },
  senderFrame: { url: 'file:///app/out/renderer/index.html', parent: null },
};

function ipcDoor(h: RunningLeeway, log: string[]): Door {
  const handle = createIpcHandler({
    router: h.core.router,
    windowWebContentsId: () => WINDOW_ID,
    log: (line) => log.push(line),
  });
  // Electron copies IPC replies with the structured clone algorithm; do the same.
  return async (method, input) => structuredClone(await handle(trustedEvent, method, input));
}

/** Replaces what legitimately differs between two cores: ids (by order of appearance), times, ports, random keys. */
function normaliser(): (value: unknown) => unknown {
  const ids = new Map<string, string>();
  const idOf = (id: string): string => {
    if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
    return ids.get(id) ?? id;
  };
  const walk = (value: unknown, key: string | null): unknown => {
    // Latency percentiles (one per overview bucket) are timings: they differ between the two cores.
    if (Array.isArray(value))
      return key !== null && /^p\d+Ms$/.test(key) ? '<latencies>' : value.map((v) => walk(v, null));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    if (key === null) return value;
    if ((key === 'id' || key === 'connectionId' || key === 'poolId' || key === 'keyId') && typeof value === 'string')
      return idOf(value);
    // `<poolId>:<unit>:<window>`: the pool id part differs between the two cores.
    if (key === 'dimensionKey' && typeof value === 'string') return value.replace(/^[^:]+/, (id) => idOf(id));
    if (/At$|^p\d+Ms$|^(now|ts|at|latencyMs|ttfbMs|ms|from|to|coveredFrom)$/.test(key) && typeof value === 'number')
      return '<number>';
    // Exported file names carry the time; overview buckets are times that differ between the two cores.
    if (key === 'filename') return '<filename>';
    if (key === 'buckets') return '<buckets>';
    if (key === 'plainKey' || key === 'prefix' || key === 'dataDir') return `<${key}>`;
    if (typeof value === 'string')
      return value.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').replace(/\b\d+ ms\b/g, '<n> ms');
    return value;
  };
  return (value) => walk(value, null);
}

interface Step {
  method: MethodName;
  input: unknown | ((earlier: Result<unknown>[]) => unknown);
}

const createdKeyId = (earlier: Result<unknown>[]): unknown => {
  const created = earlier.find(
    (r): r is { ok: true; value: { key: { id: string } } } =>
      r.ok && typeof r.value === 'object' && r.value !== null && 'plainKey' in r.value,
  );
  return { id: created?.value.key.id ?? 'missing' };
};

function steps(upstreamUrl: string): Step[] {
  return [
    { method: 'app.info', input: undefined },
    { method: 'connections.list', input: undefined },
    {
      method: 'connections.upsert',
      input: {
        name: 'extra',
        kind: 'openai-compatible',
        baseUrl: `${upstreamUrl}/v1`,
        secret: { type: 'api-key', apiKey: 'sk-extra-secret-0000000000000' },
      },
    },
    { method: 'connections.test', input: { name: 'main' } },
    { method: 'connections.test', input: { name: 'ghost' } },
    { method: 'connections.reset', input: { name: 'main' } },
    { method: 'keys.list', input: undefined },
    { method: 'keys.create', input: { name: 'laptop' } },
    { method: 'keys.revoke', input: createdKeyId },
    { method: 'keys.revoke', input: { id: 'no-such-key' } },
    { method: 'keys.create', input: { name: 'lease-bot', scopes: ['lease:exclusive'], allowedConnections: ['main'] } },
    { method: 'keys.create', input: { name: 'lease-bad', scopes: ['lease:exclusive'] } },
    { method: 'combos.list', input: undefined },
    {
      method: 'combos.upsert',
      input: { name: 'pair', targets: ['main', { connection: 'extra', model: 'gpt-x' }], strategy: 'round-robin' },
    },
    { method: 'combos.list', input: undefined },
    { method: 'routes.list', input: undefined },
    {
      method: 'routes.replace',
      input: {
        routes: [
          { match: '*haiku*', to: 'pair' },
          { match: '*', to: 'main/claude-x' },
        ],
      },
    },
    {
      method: 'routes.replace',
      input: {
        routes: [
          { match: '*', to: 'main/claude-x' },
          { match: 'gpt-*', to: 'ghost' },
        ],
      },
    },
    { method: 'combos.remove', input: { name: 'pair' } },
    { method: 'routes.list', input: undefined },
    { method: 'routes.replace', input: { routes: [{ match: '*', to: 'main/claude-x' }] } },
    { method: 'sessions.list', input: undefined },
    { method: 'sessions.clear', input: { target: 'all' } },
    { method: 'sessions.clear', input: { target: 'connection', connection: 'ghost' } },
    { method: 'leases.list', input: undefined },
    { method: 'leases.clear', input: { target: 'all' } },
    { method: 'leases.clear', input: { target: 'connection', connection: 'ghost' } },
    { method: 'connections.remove', input: { name: 'extra' } },
    { method: 'combos.remove', input: { name: 'pair' } },
    { method: 'connections.remove', input: { name: 'extra' } },
    { method: 'connections.remove', input: { name: 'ghost' } },
    { method: 'settings.get', input: undefined },
    { method: 'settings.update', input: { requestLogMaxRows: 1_000 } },
    { method: 'app.setPaused', input: { paused: true } },
    { method: 'app.info', input: {} },
    { method: 'app.setPaused', input: { paused: false } },
    { method: 'activity.list', input: { limit: 10 } },
    { method: 'activity.summary', input: undefined },
    { method: 'activity.decision', input: { id: 'last' } },
    { method: 'activity.decision', input: { id: 999_999 } },
    { method: 'cooldowns.list', input: undefined },
    { method: 'queues.list', input: undefined },
    { method: 'held.list', input: undefined },
    { method: 'held.act', input: { id: 'h-gone', action: 'cancel' } },
    { method: 'cooldowns.clear', input: { target: 'all' } },
    { method: 'cooldowns.clear', input: { target: 'connection', connection: 'ghost' } },
    { method: 'resilience.getSettings', input: undefined },
    { method: 'resilience.updateSettings', input: { cooldown: { apikey: { baseCooldownMs: 2_000 } } } },
    { method: 'resilience.reset', input: undefined },
    { method: 'claude.status', input: undefined },
    { method: 'claude.importCredentials', input: { name: 'max-import', path: '/nonexistent/.credentials.json' } },
    { method: 'quota.listPools', input: undefined },
    { method: 'quota.listPlans', input: undefined },
    {
      method: 'quota.setPlan',
      input: { connection: 'main', dimensions: [{ unit: 'requests', window: 'hourly', limit: 100 }] },
    },
    {
      method: 'quota.setPlan',
      input: { connection: 'ghost', dimensions: [{ unit: 'requests', window: 'hourly', limit: 1 }] },
    },
    {
      method: 'quota.upsertPool',
      input: {
        name: 'team',
        connection: 'main',
        allocations: [
          { key: 'test', weight: 50 },
          { key: 'lease-bot', weight: 50 },
        ],
      },
    },
    { method: 'quota.upsertPool', input: { name: 'bad', connection: 'main', allocations: [{ key: 'carol' }] } },
    { method: 'quota.listPools', input: undefined },
    { method: 'quota.poolUsage', input: { id: 'team' } },
    { method: 'quota.poolUsage', input: { id: 'nope' } },
    { method: 'quota.removePlan', input: { connection: 'main' } },
    { method: 'quota.removePool', input: { name: 'team' } },
    { method: 'quota.removePool', input: { name: 'team' } },
    { method: 'quota.storeStatus', input: undefined },
    { method: 'activity.exportCsv', input: { until: 0 } },
    { method: 'overview.series', input: { range: 'hour' } },
    { method: 'overview.usage', input: undefined },
    { method: 'models.discovered', input: undefined },
    { method: 'models.discovered', input: { connection: 'main' } },
    // A key that is no local key: refused before any file is touched (CLAUDE_CONFIG_DIR is a temp dir anyway).
    { method: 'setup.claudeCodePreview', input: { authToken: 'lw-not-a-key-000000' } },
    { method: 'setup.configureClaudeCode', input: { authToken: 'lw-not-a-key-000000' } },
    { method: 'setup.undoClaudeCode', input: undefined },
    { method: 'setup.claudeCodeStatus', input: undefined },
    // Issue 23 §2: the agents' files live under a temporary HOME (set in beforeAll).
    { method: 'setup.agents.list', input: undefined },
    { method: 'setup.agent.preview', input: { agent: 'codex', authToken: 'lw-not-a-key-000000' } },
    { method: 'setup.agent.apply', input: { agent: 'aider', authToken: 'lw-not-a-key-000000' } },
    { method: 'setup.agent.undo', input: { agent: 'opencode' } },
    { method: 'setup.agent.snippet', input: { agent: 'gemini-cli' } },
    { method: 'connections.rename', input: { from: 'main', to: 'main-renamed' } },
    { method: 'connections.rename', input: { from: 'main-renamed', to: 'main' } },
    { method: 'connections.rename', input: { from: 'ghost', to: 'ghost-2' } },
    { method: 'keys.rename', input: { id: 'no-such-key', name: 'x' } },
    { method: 'combos.rename', input: { from: 'nope', to: 'x' } },
    { method: 'cooldowns.probe', input: { target: 'connection', connection: 'main' } },
    { method: 'cooldowns.probe', input: { target: 'connection', connection: 'ghost' } },
  ];
}

const NO_INPUT = [{ unexpected: true }, 'text'];

/** Inputs each method's schema (or its handler's own validation) must refuse; a missing method is a compile error. */
const INVALID_INPUTS: Record<MethodName, unknown[]> = {
  'app.info': NO_INPUT,
  'app.setPaused': [{ paused: 'yes' }, {}, { paused: true, extra: 1 }],
  'connections.list': NO_INPUT,
  'connections.upsert': [
    { name: 'bad name!', kind: 'anthropic' },
    { name: 'x', kind: 'warp-drive' },
    { name: 'x', kind: 'openai-compatible' },
  ],
  'connections.remove': [{}, { name: '   ' }],
  'connections.test': [{}, { name: 7 }],
  'connections.reset': [{}, { name: '' }],
  'keys.list': NO_INPUT,
  'keys.create': [{ name: '' }, { name: 'k', key: 'short' }],
  'keys.revoke': [{}, { id: '' }],
  'combos.list': NO_INPUT,
  'combos.upsert': [
    { name: 'c', targets: [] },
    { name: 'has space', targets: ['main'] },
  ],
  'combos.remove': [{}],
  'routes.list': NO_INPUT,
  'routes.replace': [
    {},
    { routes: [{ match: '', to: 'main' }] },
    { routes: [{ match: 'has space', to: 'main' }] },
    { routes: [{ match: '*', to: 'main', extra: 1 }] },
  ],
  'sessions.list': NO_INPUT,
  'sessions.clear': [{ target: 'everything' }, { target: 'connection' }, { target: 'pin', keyName: 'k' }],
  'leases.list': NO_INPUT,
  'leases.clear': [{}, { target: 'owner', owner: 'vlo_x' }, { target: 'connection', connection: '' }],
  'settings.get': NO_INPUT,
  'settings.update': [{ requestLogMaxRows: 1 }, { unknownSetting: true }],
  'activity.list': [{ limit: 0 }, { status: 'maybe' }],
  'activity.summary': NO_INPUT,
  'activity.decision': [{ id: 0 }, { id: 'first' }],
  'cooldowns.list': NO_INPUT,
  'queues.list': NO_INPUT,
  'held.list': NO_INPUT,
  'held.act': [
    { id: 'h1' },
    { id: '', action: 'cancel' },
    { id: 'h1', action: 'explode' },
    { id: 'h1', action: 'cancel', x: 1 },
  ],
  'cooldowns.clear': [{ target: 'everything' }, { target: 'connection' }],
  'resilience.reset': NO_INPUT,
  'resilience.getSettings': NO_INPUT,
  'resilience.updateSettings': ['text', { bogusSection: {} }, { cooldown: { apikey: { baseCooldownMs: 'slow' } } }],
  'claude.status': NO_INPUT,
  'claude.importCredentials': [{}, { name: 'bad name!' }, { name: 'ok', extra: 1 }],
  'quota.listPools': NO_INPUT,
  'quota.upsertPool': [
    { name: 'p' },
    { name: 'p', connection: 'main', allocations: [] },
    { name: 'bad name!', connection: 'main', allocations: [{ key: 'test' }] },
    {
      name: 'p',
      connection: 'main',
      dimensions: [{ unit: 'hours', window: 'hourly', limit: 1 }],
      allocations: [{ key: 'test' }],
    },
  ],
  'quota.removePool': [{}],
  'quota.poolUsage': [{}, { id: '' }],
  'quota.listPlans': NO_INPUT,
  'quota.setPlan': [
    { connection: 'main' },
    { connection: 'main', dimensions: [] },
    { connection: 'main', dimensions: [{ unit: 'requests', window: 'fortnightly', limit: 1 }] },
  ],
  'quota.removePlan': [{}, { connection: 'main', extra: 1 }],
  'quota.storeStatus': NO_INPUT,
  'activity.exportCsv': [{ limit: 5 }, { status: 'maybe' }],
  'overview.series': [{ range: 'month' }, {}, { range: 'hour', x: 1 }],
  'overview.usage': NO_INPUT,
  'models.discovered': NO_INPUT,
  'setup.claudeCodePreview': [{}, { authToken: '' }],
  'setup.configureClaudeCode': [{}, { authToken: '' }],
  'setup.undoClaudeCode': NO_INPUT,
  'setup.claudeCodeStatus': NO_INPUT,
  'setup.agents.list': NO_INPUT,
  'setup.agent.preview': [{ agent: 'codex' }, { agent: 'vim', authToken: 'lw-x' }],
  'setup.agent.apply': [{ agent: 'codex', authToken: '' }, { authToken: 'lw-x' }],
  'setup.agent.undo': [{}, { agent: 'claude' }],
  'setup.agent.snippet': [{}, { agent: 'codex', authToken: '', extra: 1 }],
  'connections.rename': [{}, { from: 'main', to: 'bad name!' }],
  'keys.rename': [{}, { id: 'x', name: '' }],
  'combos.rename': [{}, { from: 'pair', to: 'has space' }],
  'cooldowns.probe': [{ target: 'all' }, { target: 'connection' }],
};

describe('contract conformance: HTTP door and IPC door', () => {
  let upstream: FakeUpstream;
  let viaHttp: RunningLeeway;
  let viaIpc: RunningLeeway;
  const ipcLog: string[] = [];
  let realHome: string | undefined;

  beforeAll(async () => {
    // The setup methods write Claude Code's settings: never the real ~/.claude.
    process.env.CLAUDE_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'leeway-claude-config-'));
    // …and the other agents' setup (issue 23 §2) writes under HOME: never the real one.
    realHome = process.env.HOME;
    process.env.HOME = mkdtempSync(join(tmpdir(), 'leeway-agents-home-'));
    upstream = await startFakeUpstream({ format: 'anthropic', requireAuth: false, models: ['claude-x'] });
    const config = { connections: [anthropicConnection('main', upstream.url)] };
    [viaHttp, viaIpc] = await Promise.all([startLeeway(config), startLeeway(config)]);
    // One proxied request each, so the activity methods have something to show.
    for (const h of [viaHttp, viaIpc]) {
      const res = await fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': h.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'claude-x', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });
  afterAll(async () => {
    if (realHome === undefined) delete process.env.HOME;
    else process.env.HOME = realHome;
    await Promise.all([viaHttp?.stop(), viaIpc?.stop()]);
    await upstream?.close();
  });

  it('PROD-8: the conformance run covers every method of the contract', () => {
    const covered = new Set(steps('http://x').map((s) => s.method));
    expect(METHOD_NAMES.filter((m) => !covered.has(m))).toEqual([]);
    expect(Object.keys(INVALID_INPUTS).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('PROD-8 PROD-9: every method answers the same Result through HTTP and through IPC', async () => {
    const http = httpDoor(viaHttp);
    const ipc = ipcDoor(viaIpc, ipcLog);
    const [normHttp, normIpc] = [normaliser(), normaliser()];
    const earlier: { http: Result<unknown>[]; ipc: Result<unknown>[] } = { http: [], ipc: [] };
    const outcomes: string[] = [];
    for (const step of steps(upstream.url)) {
      const inputFor = (results: Result<unknown>[]) =>
        typeof step.input === 'function' ? step.input(results) : step.input;
      const a = await http(step.method, inputFor(earlier.http));
      const b = await ipc(step.method, inputFor(earlier.ipc));
      earlier.http.push(a);
      earlier.ipc.push(b);
      expect(normHttp(a), `${step.method} ${JSON.stringify(inputFor([]))}`).toEqual(normIpc(b));
      outcomes.push(`${step.method}:${a.ok ? 'ok' : a.error.code}`);
    }
    // The run exercised real work, not a wall of refusals.
    expect(outcomes).toEqual([
      'app.info:ok',
      'connections.list:ok',
      'connections.upsert:ok',
      'connections.test:ok',
      'connections.test:not_found',
      'connections.reset:ok',
      'keys.list:ok',
      'keys.create:ok',
      'keys.revoke:ok',
      'keys.revoke:not_found',
      'keys.create:ok',
      'keys.create:invalid_input',
      'combos.list:ok',
      'combos.upsert:ok',
      'combos.list:ok',
      'routes.list:ok',
      'routes.replace:ok',
      'routes.replace:invalid_input',
      'combos.remove:conflict',
      'routes.list:ok',
      'routes.replace:ok',
      'sessions.list:ok',
      'sessions.clear:ok',
      'sessions.clear:not_found',
      'leases.list:ok',
      'leases.clear:ok',
      'leases.clear:not_found',
      'connections.remove:conflict',
      'combos.remove:ok',
      'connections.remove:ok',
      'connections.remove:not_found',
      'settings.get:ok',
      'settings.update:ok',
      'app.setPaused:ok',
      'app.info:ok',
      'app.setPaused:ok',
      'activity.list:ok',
      'activity.summary:ok',
      'activity.decision:ok',
      'activity.decision:not_found',
      'cooldowns.list:ok',
      'queues.list:ok',
      'held.list:ok',
      'held.act:not_found',
      'cooldowns.clear:ok',
      'cooldowns.clear:not_found',
      'resilience.getSettings:ok',
      'resilience.updateSettings:ok',
      'resilience.reset:ok',
      'claude.status:ok',
      'claude.importCredentials:not_found',
      'quota.listPools:ok',
      'quota.listPlans:ok',
      'quota.setPlan:ok',
      'quota.setPlan:not_found',
      'quota.upsertPool:ok',
      'quota.upsertPool:invalid_input',
      'quota.listPools:ok',
      'quota.poolUsage:ok',
      'quota.poolUsage:not_found',
      'quota.removePlan:ok',
      'quota.removePool:ok',
      'quota.removePool:not_found',
      'quota.storeStatus:ok',
      'activity.exportCsv:ok',
      'overview.series:ok',
      'overview.usage:ok',
      'models.discovered:ok',
      'models.discovered:ok',
      'setup.claudeCodePreview:invalid_input',
      'setup.configureClaudeCode:invalid_input',
      'setup.undoClaudeCode:not_found',
      'setup.claudeCodeStatus:ok',
      'setup.agents.list:ok',
      'setup.agent.preview:invalid_input',
      'setup.agent.apply:invalid_input',
      'setup.agent.undo:not_found',
      'setup.agent.snippet:ok',
      'connections.rename:ok',
      'connections.rename:ok',
      'connections.rename:not_found',
      'keys.rename:not_found',
      'combos.rename:not_found',
      'cooldowns.probe:ok',
      'cooldowns.probe:not_found',
    ]);
    expect(ipcLog).toEqual([]);
  });

  it('PROD-8: invalid input to every method is invalid_input through both doors, never a throw', async () => {
    const http = httpDoor(viaHttp);
    const ipc = ipcDoor(viaIpc, ipcLog);
    const norm = normaliser();
    for (const method of METHOD_NAMES) {
      for (const input of [42, ...INVALID_INPUTS[method]]) {
        const label = `${method} ${JSON.stringify(input)}`;
        const [a, b] = await Promise.all([http(method, input), ipc(method, input)]);
        expect(a, label).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
        expect(norm(a), label).toEqual(norm(b));
      }
    }
  });

  it('PROD-8: an unknown method is unknown_method through both doors', async () => {
    const [a, b] = await Promise.all([
      httpDoor(viaHttp)('nope.nothing', {}),
      ipcDoor(viaIpc, ipcLog)('nope.nothing', {}),
    ]);
    expect(a).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    expect(b).toEqual(a);
  });
});
