import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '../../src-shared/contract/errors';
import type { MethodInput, MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type {
  ConnectionCooldownRow,
  CooldownSnapshot,
  ProviderBreakerRow,
  TargetExclusion,
} from '../../src-shared/domain/cooldown';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import type { WireFormat } from '../testing/fake-upstream-types';
import { startLeeway, type RunningLeeway } from '../testing/start-leeway';

/**
 * Shared by the resilience integration tests: a scene of fake upstreams and one real Leeway on
 * its own data dir (so it can be restarted on the same database), plus typed shortcuts for the
 * proxy, the contract and the REST door.
 */
export interface Scene {
  fake(name: string, format?: WireFormat): Promise<FakeUpstream>;
  start(config: Record<string, unknown>): Promise<RunningLeeway>;
  /** Stops Leeway and starts it again on the same data dir and config. */
  restart(): Promise<RunningLeeway>;
  readonly h: RunningLeeway;
  cleanup(): Promise<void>;
}

/**
 * `cooldownWait: false` switches the combo cooldown wait (CONC-7, on by default) off at each start,
 * for tests that pin what the engines answer at once (a 429, a 503 all_targets_cooling_down).
 */
export function createScene(options: { cooldownWait?: boolean } = {}): Scene {
  const upstreams: FakeUpstream[] = [];
  let leeway: RunningLeeway | null = null;
  let config: Record<string, unknown> = {};
  let dataDir: string | null = null;
  const dir = () => (dataDir ??= mkdtempSync(join(tmpdir(), 'leeway-resilience-it-')));
  return {
    async fake(name, format = 'anthropic') {
      const upstream = await startFakeUpstream({ format, name });
      upstreams.push(upstream);
      return upstream;
    },
    async start(next) {
      config = next;
      leeway = await startLeeway(config, { dataDir: dir() });
      if (options.cooldownWait === false)
        await call(leeway, 'resilience.updateSettings', { comboCooldownWait: { enabled: false } });
      return leeway;
    },
    async restart() {
      await leeway?.stop();
      leeway = null;
      leeway = await startLeeway(config, { dataDir: dir() });
      return leeway;
    },
    get h() {
      if (!leeway) throw new Error('Leeway is not running');
      return leeway;
    },
    async cleanup() {
      await leeway?.stop();
      leeway = null;
      await Promise.all(upstreams.splice(0).map((u) => u.close()));
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      dataDir = null;
    },
  };
}

/** A contract call that must succeed. */
export async function call<M extends MethodName>(
  h: RunningLeeway,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> {
  const result = await h.core.router.call(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

/** A contract call whose refusal the test wants to see. */
export function callRaw(h: RunningLeeway, method: MethodName, input: unknown): Promise<Result<unknown>> {
  return h.core.router.call(method, input);
}

export const snapshot = (h: RunningLeeway): Promise<CooldownSnapshot> => call(h, 'cooldowns.list', undefined);

export async function connectionRow(h: RunningLeeway, name: string): Promise<ConnectionCooldownRow> {
  const row = (await snapshot(h)).connections.find((c) => c.name === name);
  if (!row) throw new Error(`no cooldown row for ${name}`);
  return row;
}

export async function providerRow(h: RunningLeeway, provider: string): Promise<ProviderBreakerRow | undefined> {
  return (await snapshot(h)).providers.find((p) => p.provider === provider);
}

/** The provider id the engine gives a fake: `kind@origin`. */
export const providerId = (kind: string, upstream: FakeUpstream): string => `${kind}@${upstream.url}`;

/** POST /v1/messages as Claude Code would send it. */
export function askAnthropic(h: RunningLeeway, model: string): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

/** POST /v1/chat/completions as aider would send it. */
export function askOpenAI(h: RunningLeeway, model: string): Promise<Response> {
  return fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${h.key}` },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

/** The Leeway part of a proxy error body (PROD-17). */
export interface LeewayErrorPart {
  code: string;
  details?: { excluded?: TargetExclusion[] };
}

/** Asks and drains the body, returning what the tests look at. */
export async function send(
  ask: Promise<Response>,
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> & { leeway?: LeewayErrorPart } }> {
  const res = await ask;
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) as Record<string, unknown> };
}

/** The admin REST door, with the admin token unless told otherwise. */
export async function rest(
  h: RunningLeeway,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  token: string | null = h.adminToken,
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${h.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** Polls until `check` holds; for lazily emitted events. */
export async function until(check: () => boolean, what: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
