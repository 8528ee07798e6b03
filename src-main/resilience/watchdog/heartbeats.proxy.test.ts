import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { startFakeUpstream, type FakeUpstream } from '../../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../../testing/start-leeway';

let upstream: FakeUpstream | null = null;
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await upstream?.close();
  upstream = null;
});

const MODEL = 'claude-sonnet-4-5';

/** One Anthropic connection; the idle timeout at its floor (1 s), far above the 100 ms heartbeat interval. */
async function start(watchdog: { warmupMs: number; windowMs: number }) {
  upstream = await startFakeUpstream({ format: 'anthropic', name: 'only' });
  leeway = await startLeeway({
    connections: [anthropicConnection('only', upstream.url)],
    combos: [{ name: 'main', targets: [{ connection: 'only', model: MODEL }] }],
  });
  const h = leeway;
  expect((await h.core.router.call('settings.update', { upstreamIdleTimeoutMs: 1_000 })).ok).toBe(true);
  const r = await h.core.router.call('resilience.updateSettings', {
    streamRecovery: { throughputWatchdog: { enabled: true, minUsefulBytesPerSecond: 4, ...watchdog } },
  });
  expect(r.ok).toBe(true);
  return { u: upstream, h };
}

async function ask(h: RunningLeeway): Promise<{ status: number; text: string; ms: number }> {
  const t0 = Date.now();
  const res = await fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'main', stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const text = await res.text();
  return { status: res.status, text, ms: Date.now() - t0 };
}

async function onlyRow(h: RunningLeeway): Promise<RequestLogEntry | undefined> {
  // The row is written as the request settles, just after the client's last byte.
  for (let i = 0; i < 50; i++) {
    const list = await h.core.router.call('activity.list', {});
    const entries = list.ok && Array.isArray(list.value) ? (list.value as RequestLogEntry[]) : [];
    if (entries.length > 0) return entries[0];
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

const lastEvent = (text: string) => text.trimEnd().split('\n\n').at(-1) ?? '';

describe('WATCH-2 through the proxy: heartbeats are not progress', () => {
  for (const heartbeat of ['comment', 'ping'] as const)
    it(`WATCH-2: ${heartbeat} heartbeats every 100 ms after the first text delta do not keep the watchdog from cutting the stream`, async () => {
      const { u, h } = await start({ warmupMs: 0, windowMs: 1_000 });
      // message_start, content_block_start, a ping and the first text delta reach the client, then only heartbeats:
      // bytes keep flowing ten times faster than the 1 s idle timeout, so undici's bodyTimeout never fires.
      u.enqueue({ kind: 'trickle', intervalMs: 100, after: 4, heartbeats: 300, heartbeat });
      const { status, text, ms } = await ask(h);
      expect(status).toBe(200);
      expect(text).toContain('"text_delta"');
      expect(text).not.toContain('message_stop');
      const last = lastEvent(text);
      expect(last.startsWith('event: error\ndata: ')).toBe(true);
      expect(last).toMatch(/useful bytes\/s/);
      // Not before one full window after the first byte (WATCH-3), and long before the 300 heartbeats (30 s) end.
      expect(ms).toBeGreaterThanOrEqual(1_000);
      expect(ms).toBeLessThan(10_000);
      await u.waitFor((x) => x.requests[0]?.aborted === true);
      expect((await onlyRow(h))?.errorCode).toBe('upstream_too_slow');
    });

  // The attempt hands the watchdog the idle limit (`createStreamWatchdog(settings, frame.bodyTimeoutMs)`):
  // without it the pings would keep undici's bodyTimeout from ever firing.
  it('WATCH-2: with the watchdog on, pings every 100 ms do not reset the idle timer: the stream is cut ~1 s after its last text', async () => {
    const { u, h } = await start({ warmupMs: 600_000, windowMs: 600_000 });
    u.enqueue({ kind: 'trickle', intervalMs: 100, after: 4, heartbeats: 300, heartbeat: 'ping' });
    const { status, text, ms } = await ask(h);
    expect(status).toBe(200);
    expect(text).toContain('"text_delta"');
    expect(text).not.toContain('message_stop');
    const last = lastEvent(text);
    expect(last.startsWith('event: error\ndata: ')).toBe(true);
    expect(last).toMatch(/0\.0 useful bytes\/s/);
    expect(ms).toBeGreaterThanOrEqual(1_000);
    expect(ms).toBeLessThan(5_000);
    await u.waitFor((x) => x.requests[0]?.aborted === true);
    expect((await onlyRow(h))?.errorCode).toBe('upstream_too_slow');
  });
});
