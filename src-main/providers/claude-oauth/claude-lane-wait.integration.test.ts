import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, connectionRow } from '../../resilience/resilience-it.testkit';
import { claudeConnection } from '../../testing/fake-claude/fake-claude';
import {
  activityEntries,
  answerText,
  claudeStatus,
  MODEL,
  nowSeconds,
  send,
  sentSlow,
  useClaudeScene,
} from '../../testing/fake-claude/claude-scene';

/*
 * LOWP-7 waits through the real proxy: slot_busy / 529 answers to slow requests make Leeway wait
 * the server's retry-after (clamped to at least 5 s) and retry on the same connection; a streaming
 * client meanwhile gets SSE keep-alive comments. Math.random is pinned so the ±30 % jitter is 0 and
 * the wait is exactly the clamped 5 s (a wait of 5 s or more starts the keep-alive).
 */
const scene = useClaudeScene();
afterEach(() => {
  vi.restoreAllMocks();
});

const WAIT_TEST_MS = 20_000;

describe('claude-oauth low-priority lane waits', () => {
  it(
    'LOWP-7: slot_busy on a streaming request → keep-alive comments, a wait of the clamped retry-after, then the stream; the SDK parses it',
    async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      const fake = await scene.claude({ name: 'sub', text: 'streamed from the slow lane' });
      fake.setWall({ resetAt: nowSeconds() + 3600 });
      // 1 s is below the 5 s minimum: the wait is clamped up to 5 s.
      fake.enqueueSlow({ kind: 'slot_busy', retryAfter: 1 });
      const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });

      let raw: Promise<string> | null = null;
      const client = new Anthropic({
        baseURL: h.url,
        apiKey: h.key,
        maxRetries: 0,
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          raw = res.clone().text();
          return res;
        },
      });
      const started = Date.now();
      const stream = client.messages.stream({
        model: MODEL,
        max_tokens: 32,
        messages: [{ role: 'user', content: 'hi' }],
      });
      const deltas: string[] = [];
      stream.on('text', (delta) => deltas.push(delta));
      const final = await stream.finalMessage();
      const elapsed = Date.now() - started;

      expect(final.content[0]).toMatchObject({ type: 'text', text: 'streamed from the slow lane' });
      expect(deltas.join('')).toBe('streamed from the slow lane');
      expect(final.stop_reason).toBe('end_turn');
      expect(elapsed).toBeGreaterThanOrEqual(4_900);
      expect(elapsed).toBeLessThan(9_000);
      const text = await (raw ?? Promise.resolve(''));
      expect(text.startsWith(': leeway keep-alive')).toBe(true);
      expect(text.indexOf(': leeway keep-alive')).toBeLessThan(text.indexOf('event: message_start'));
      expect(text).toContain('event: message_stop');

      const upstream = fake.messages().map((r) => [r.response?.status, sentSlow(r)]);
      expect(upstream).toEqual([
        [429, false],
        [429, true],
        [200, true],
      ]);
      expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBeNull();
      const [entry] = await activityEntries(h, 1);
      expect(entry).toMatchObject({ status: 200, stream: true, servedVia: 'slot-busy' });
      const status = await claudeStatus(h, 'sub');
      expect(status.lane).toMatchObject({ kind: 'active', retryAfterMs: 5_000, requestsServed: 1 });
    },
    WAIT_TEST_MS,
  );

  it(
    'LOWP-7: a 529 on a non-streaming slow request is waited out (no keep-alive: headers come with the answer) and retried',
    async () => {
      // The lowest jitter: 5 s × 0.7 = 3.5 s, under the keep-alive threshold.
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const fake = await scene.claude({ name: 'sub' });
      fake.setWall({ resetAt: nowSeconds() + 3600 });
      const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
      expect((await send(h)).status).toBe(200);

      fake.enqueueSlow({ kind: 'overloaded', retryAfter: 5 });
      const started = Date.now();
      const res = await send(h);
      const elapsed = Date.now() - started;
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(answerText(res.text)).toBe('Hello from sub.');
      expect(elapsed).toBeGreaterThanOrEqual(3_400);
      expect(elapsed).toBeLessThan(6_000);
      expect(
        fake
          .messages()
          .slice(2)
          .map((r) => [r.response?.status, sentSlow(r)]),
      ).toEqual([
        [529, true],
        [200, true],
      ]);
      const [latest] = await activityEntries(h, 2);
      expect(latest).toMatchObject({ status: 200, servedVia: 'capacity-busy' });
      expect((await connectionRow(h, 'sub')).backoffLevel).toBe(0);
    },
    WAIT_TEST_MS,
  );
});

describe('claude-oauth lane waits on the held board (issue 24 §2)', () => {
  it(
    'ISSUE-24 LOWP-7: a lane wait is listed as held (cancel only) and a cancel answers the client at once',
    async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      const fake = await scene.claude({ name: 'sub', text: 'never sent' });
      fake.setWall({ resetAt: nowSeconds() + 3600 });
      fake.enqueueSlow({ kind: 'slot_busy', retryAfter: 30 });
      const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
      const pending = fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const deadline = Date.now() + 5_000;
      let held = await call(h, 'held.list', undefined);
      while (held.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        held = await call(h, 'held.list', undefined);
      }
      const [entry] = held;
      expect(entry).toMatchObject({ waitsFor: 'lane', actions: ['cancel'] });
      expect(entry?.what).toContain("sub's");
      expect(await call(h, 'held.act', { id: entry?.id ?? '', action: 'cancel' })).toEqual({ done: true });
      const res = await pending;
      expect(res.status).toBe(409);
      expect(await res.text()).toContain('Cancelled in Leeway');
    },
    WAIT_TEST_MS,
  );
});
