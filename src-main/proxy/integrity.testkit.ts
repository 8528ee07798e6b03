import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import type { WireFormat } from '../testing/fake-upstream-types';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

/**
 * Shared by the upstream-integrity tests: fake upstreams behind one real Leeway, a client call in
 * either wire format, and the activity row a request left behind.
 */
export interface IntegrityScene {
  /** One connection `a1` (or `o1`), or two (`primary`, then `backup`) when `targets` is 2. */
  start(
    format: WireFormat,
    targets: 1 | 2,
    settings?: Record<string, number>,
  ): Promise<{ ups: FakeUpstream[]; h: RunningLeeway }>;
  cleanup(): Promise<void>;
}

export function createIntegrityScene(): IntegrityScene {
  let upstreams: FakeUpstream[] = [];
  let leeway: RunningLeeway | null = null;
  return {
    async start(format, targets, settings = {}) {
      const names = targets === 1 ? [format === 'anthropic' ? 'a1' : 'o1'] : ['primary', 'backup'];
      upstreams = await Promise.all(names.map((name) => startFakeUpstream({ format, name })));
      const connection = format === 'anthropic' ? anthropicConnection : openaiConnection;
      const model = format === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o';
      leeway = await startLeeway({
        connections: upstreams.map((u, i) =>
          connection(names[i] ?? u.name, u.url, { priority: i + 1, models: [model] }),
        ),
      });
      await leeway.core.router.call('settings.update', {
        streamHeadersTimeoutMs: 2_000,
        responseTimeoutMs: 2_000,
        ...settings,
      });
      return { ups: upstreams, h: leeway };
    },
    async cleanup() {
      await leeway?.stop();
      leeway = null;
      await Promise.all(upstreams.map((u) => u.close()));
      upstreams = [];
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** One model request in the client's own format; the whole answer is read (an empty reply throws). */
export async function ask(h: RunningLeeway, format: WireFormat, stream: boolean): Promise<Answer> {
  const anthropic = format === 'anthropic';
  const res = await fetch(`${h.url}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
    method: 'POST',
    headers: anthropic
      ? { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' }
      : { 'content-type': 'application/json', authorization: `Bearer ${h.key}` },
    body: JSON.stringify({
      model: anthropic ? 'claude-sonnet-4-5' : 'gpt-4o',
      max_tokens: 16,
      stream,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The newest activity row once `count` requests have written theirs (a row follows the reply). */
export async function lastRow(h: RunningLeeway, count = 1): Promise<RequestLogEntry> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const list = await h.core.router.call('activity.list', { limit: count });
    const rows = list.ok ? (list.value as RequestLogEntry[]) : [];
    const row = rows[0];
    if (row && rows.length >= count) return row;
    if (Date.now() > deadline) throw new Error('no activity row was written');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
