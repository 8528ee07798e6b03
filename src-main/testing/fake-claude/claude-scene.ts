/**
 * Shared by the claude-oauth integration tests: fake Claude services, fake Anthropic API-key
 * upstreams and one real Leeway on its own data dir (restartable), all stopped after each test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { call } from '../../resilience/resilience-it.testkit';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { startLeeway, type RunningLeeway } from '../start-leeway';
import { startFakeClaude, type FakeClaude, type FakeClaudeOptions, type RecordedRequest } from './fake-claude';

export interface ClaudeScene {
  claude(options?: FakeClaudeOptions): Promise<FakeClaude>;
  anthropic(name: string): Promise<FakeUpstream>;
  /** Starts Leeway on the scene's data dir with this config file content. */
  start(config: Record<string, unknown>): Promise<RunningLeeway>;
  /** Stops Leeway and starts it again on the same data dir, with `config` (default: the last one). */
  restart(config?: Record<string, unknown>): Promise<RunningLeeway>;
  readonly h: RunningLeeway;
  /** Every core event since start (or restart), oldest first. */
  readonly events: CoreEvent[];
}

/** Call once at the top of a test file; registers the afterEach that stops everything. */
export function useClaudeScene(): ClaudeScene {
  let fakes: { close(): Promise<void> }[] = [];
  let leeway: RunningLeeway | null = null;
  let config: Record<string, unknown> = {};
  let dataDir: string | null = null;
  let events: CoreEvent[] = [];
  const dir = () => (dataDir ??= mkdtempSync(join(tmpdir(), 'leeway-claude-it-')));
  const boot = async (next: Record<string, unknown>) => {
    config = next;
    events = [];
    leeway = await startLeeway(config, { dataDir: dir() });
    leeway.core.events.subscribe((event) => events.push(event));
    return leeway;
  };
  afterEach(async () => {
    await leeway?.stop();
    leeway = null;
    await Promise.all(fakes.map((f) => f.close()));
    fakes = [];
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = null;
  });
  return {
    async claude(options = {}) {
      const fake = await startFakeClaude(options);
      fakes.push(fake);
      return fake;
    },
    async anthropic(name) {
      const upstream = await startFakeUpstream({ format: 'anthropic', name });
      fakes.push(upstream);
      return upstream;
    },
    start: boot,
    async restart(next) {
      await leeway?.stop();
      leeway = null;
      return boot(next ?? config);
    },
    get h() {
      if (!leeway) throw new Error('Leeway is not running');
      return leeway;
    },
    get events() {
      return events;
    },
  };
}

export const MODEL = 'claude-sonnet-4-6';
export const SLOW = 'anthropic-usage-limit';

/** POST /v1/messages through Leeway as Claude Code would send it. */
export function ask(h: RunningLeeway, options: { stream?: boolean; model?: string } = {}): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: options.model ?? MODEL,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
      ...(options.stream ? { stream: true } : {}),
    }),
  });
}

/** Asks and reads the whole answer. */
export async function send(h: RunningLeeway, options: { stream?: boolean; model?: string } = {}) {
  const res = await ask(h, options);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** The text of a non-streamed Messages answer. */
export function answerText(body: string): string {
  const json = JSON.parse(body) as { content?: { text?: string }[] };
  return json.content?.map((c) => c.text ?? '').join('') ?? '';
}

/** The connection's id, for matching `claude.status` rows. */
export async function connectionId(h: RunningLeeway, name: string): Promise<string> {
  const found = (await call(h, 'connections.list', undefined)).find((c) => c.name === name);
  if (!found) throw new Error(`no connection ${name}`);
  return found.id;
}

export async function claudeStatus(h: RunningLeeway, name: string): Promise<ClaudeConnectionStatus> {
  const id = await connectionId(h, name);
  const row = (await call(h, 'claude.status', undefined)).find((s) => s.connectionId === id);
  if (!row) throw new Error(`no claude.status row for ${name}`);
  return row;
}

/** The activity log once it holds `count` entries (they are written just after the answer ends). */
export async function activityEntries(h: RunningLeeway, count: number): Promise<RequestLogEntry[]> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const entries: RequestLogEntry[] = await call(h, 'activity.list', {});
    if (entries.length >= count || Date.now() > deadline) return entries;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether an upstream request asked for the low-priority lane. */
export const sentSlow = (r: RecordedRequest | undefined): boolean => r?.headers[SLOW] === 'slow';

/** The bearer token an upstream request carried. */
export const bearer = (r: RecordedRequest | undefined): string | undefined =>
  /^Bearer (.+)$/.exec(r?.headers.authorization ?? '')?.[1];

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
