import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

/** Warm-up 0 and the shortest window (1 s): a stream with no useful output is cut one second in. */
async function enableWatchdog(h: RunningLeeway) {
  const r = await h.core.router.call('resilience.updateSettings', {
    streamRecovery: { throughputWatchdog: { enabled: true, warmupMs: 0, windowMs: 1_000, minUsefulBytesPerSecond: 4 } },
  });
  expect(r.ok).toBe(true);
}

async function start(format: 'anthropic' | 'openai', count: 1 | 2) {
  const made = await Promise.all(
    ['first', 'second'].slice(0, count).map((name) => startFakeUpstream({ format, name })),
  );
  upstreams.push(...made);
  const connection = format === 'anthropic' ? anthropicConnection : openaiConnection;
  const model = format === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini';
  const [first, second] = made;
  if (!first) throw new Error('no upstream');
  leeway = await startLeeway({
    connections: [
      connection('primary', first.url, { priority: 1 }),
      ...(second ? [connection('backup', second.url, { priority: 2 })] : []),
    ],
    combos: [
      { name: 'main', targets: (second ? ['primary', 'backup'] : ['primary']).map((c) => ({ connection: c, model })) },
    ],
  });
  return { first, second, h: leeway };
}

function askAnthropic(h: RunningLeeway) {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'main', stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

function askOpenai(h: RunningLeeway) {
  return fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${h.key}` },
    body: JSON.stringify({ model: 'main', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

function rows(h: RunningLeeway): Promise<RequestLogEntry[]> {
  return rowsAtLeast(h, 1);
}

async function rowsAtLeast(h: RunningLeeway, count: number): Promise<RequestLogEntry[]> {
  // The row is written as the request settles, just after the client's last byte.
  for (let i = 0; i < 50; i++) {
    const list = await h.core.router.call('activity.list', {});
    const entries = list.ok && Array.isArray(list.value) ? (list.value as RequestLogEntry[]) : [];
    if (entries.length >= count) return entries;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

describe('slow-stream watchdog through the proxy', () => {
  it('WATCH-1, WATCH-6: a stream trickling heartbeats before its first event is cut and the next target serves', async () => {
    const { first, second, h } = await start('anthropic', 2);
    await enableWatchdog(h);
    first.enqueue({ kind: 'trickle', intervalMs: 100, heartbeats: 300, heartbeat: 'comment' });
    const res = await askAnthropic(h);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('backup');
    expect(res.headers.get('x-leeway-failover')).toBe('primary=slow');
    expect(text).toBe(second?.requests[0]?.response?.body);
    // Only the slow attempt ended, and its upstream request was cancelled, not left to trickle on.
    await first.waitFor((u) => u.requests[0]?.aborted === true);
    expect(first.requests[0]?.response?.complete).toBe(false);
    const [row] = await rows(h);
    expect(row).toMatchObject({ connection: 'backup', status: 200, errorCode: null });
    expect(row?.failover).toEqual([{ connection: 'primary', status: null, reason: 'slow' }]);
  });

  it('WATCH-6, WATCH-7: after the client has the stream, it ends with an honest Anthropic error event, logged once', async () => {
    const { first, h } = await start('anthropic', 1);
    await enableWatchdog(h);
    // message_start and content_block_start reach the client, then only pings.
    first.enqueue({ kind: 'trickle', intervalMs: 100, after: 2, heartbeats: 300, heartbeat: 'ping' });
    const res = await askAnthropic(h);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.startsWith('event: message_start\n')).toBe(true);
    expect(text).toContain('event: ping\n');
    expect(text).not.toContain('message_stop');
    const last = text.trimEnd().split('\n\n').at(-1) ?? '';
    expect(last.startsWith('event: error\ndata: ')).toBe(true);
    const error = JSON.parse(last.slice('event: error\ndata: '.length)) as { type: string; error: { message: string } };
    expect(error.type).toBe('error');
    expect(error.error.message).toMatch(/useful bytes\/s/);
    await first.waitFor((u) => u.requests[0]?.aborted === true);
    // A second request after it: a duplicate finalisation of the first would show as a third row.
    first.enqueue({ kind: 'ok' });
    expect((await (await askAnthropic(h)).text()).includes('message_stop')).toBe(true);
    const log = await rowsAtLeast(h, 2);
    expect(log).toHaveLength(2);
    expect(log.map((r) => r.errorCode).sort()).toEqual([null, 'upstream_too_slow']);
    expect(log.find((r) => r.errorCode !== null)).toMatchObject({ connection: 'primary', status: 200 });
  });

  it('WATCH-4/6: an OpenAI stream of empty-content chunks is cut with an error chunk carrying upstream_too_slow', async () => {
    const { first, h } = await start('openai', 1);
    await enableWatchdog(h);
    first.enqueue({ kind: 'trickle', intervalMs: 100, after: 1, heartbeats: 300, heartbeat: 'ping' });
    const res = await askOpenai(h);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain('[DONE]');
    const last = text.trimEnd().split('\n\n').at(-1) ?? '';
    const chunk = JSON.parse(last.slice('data: '.length)) as { error: { code: string } };
    expect(chunk.error.code).toBe('upstream_too_slow');
    const log = await rows(h);
    expect(log).toHaveLength(1);
    expect(log[0]?.errorCode).toBe('upstream_too_slow');
  });

  it('WATCH-5: off by default: the same trickling stream is relayed untouched to its end', async () => {
    const { first, h } = await start('anthropic', 1);
    // 1.5 s of pings: longer than the window the other tests use.
    first.enqueue({ kind: 'trickle', intervalMs: 100, after: 2, heartbeats: 15, heartbeat: 'ping' });
    const res = await askAnthropic(h);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toBe(first.requests[0]?.response?.body);
    expect(text).toContain('message_stop');
    const [row] = await rows(h);
    expect(row?.errorCode).toBeNull();
  });

  it('WATCH-3: with the watchdog on, a stream whose text keeps coming is not cut', async () => {
    const { first, h } = await start('anthropic', 1);
    await enableWatchdog(h);
    // 20 deltas of "tN " (3–4 bytes) every 100 ms: ~30 B/s, well above 4 B/s, for 2+ s.
    first.enqueue({ kind: 'slow-stream', intervalMs: 100, deltas: 20 });
    const res = await askAnthropic(h);
    const text = await res.text();
    expect(text).toBe(first.requests[0]?.response?.body);
    const [row] = await rows(h);
    expect(row?.errorCode).toBeNull();
  });
});
