import { describe, expect, it } from 'vitest';
import { connectionRow, until } from '../../resilience/resilience-it.testkit';
import { claudeConnection } from '../../testing/fake-claude/fake-claude';
import {
  activityEntries,
  answerText,
  claudeStatus,
  nowSeconds,
  send,
  sentSlow,
  useClaudeScene,
} from '../../testing/fake-claude/claude-scene';

/*
 * Claude subscription connections through the real proxy against the fake Claude service: the
 * usage wall with and without the low-priority lane, and the usage windows every answer reports.
 */
const scene = useClaudeScene();
const ANSWER = 'answer from the fake Claude subscription';

describe('claude-oauth at the usage wall', () => {
  it('LOWP-4/LOWP-6/TEST-8: with lowPriorityMode the wall 429 is retried once on the same connection with the slow header; no cooldown', async () => {
    const fake = await scene.claude({ name: 'sub', text: ANSWER });
    const resetAt = nowSeconds() + 3600;
    fake.setWall({ resetAt });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });

    const first = await send(h);
    expect(first.status).toBe(200);
    expect(answerText(first.text)).toBe(ANSWER);
    expect(first.headers.get('x-leeway-connection')).toBe('sub');
    const [wall, slow] = fake.messages();
    expect(fake.messages()).toHaveLength(2);
    // LOWP-3: nothing low-priority goes out before the first limit 429.
    expect(sentSlow(wall)).toBe(false);
    expect(wall?.response?.status).toBe(429);
    expect(sentSlow(slow)).toBe(true);
    expect(slow?.body).toBe(wall?.body);
    // LOWP-6: the intercepted 429 never reached cooldown handling.
    const row = await connectionRow(h, 'sub');
    expect(row).toMatchObject({ rateLimitedUntil: null, testStatus: 'active', terminal: false, backoffLevel: 0 });

    // LOWP-5: while the lane is active every request carries the header on its first attempt.
    const second = await send(h);
    expect(second.status).toBe(200);
    expect(fake.messages()).toHaveLength(3);
    expect(sentSlow(fake.messages()[2])).toBe(true);

    const [latest, earliest] = await activityEntries(h, 2);
    expect(earliest).toMatchObject({
      connection: 'sub',
      status: 200,
      servedVia: 'low-priority-accepted',
      failover: [],
    });
    expect(latest).toMatchObject({ connection: 'sub', status: 200, servedVia: null });
    const status = await claudeStatus(h, 'sub');
    expect(status.lane).toMatchObject({ kind: 'active', resetsAtMs: resetAt * 1000, requestsServed: 2 });
    expect(status.lastVia).toMatchObject({ via: 'low-priority-accepted' });
  });

  it('LOWP-3/RESET-9: opted out, the wall 429 reaches the client after one call without the slow header and cools until the announced reset', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const resetAt = nowSeconds() + 2 * 3600;
    fake.setWall({ resetAt });
    const h = await scene.start({ connections: [claudeConnection('sub', fake)] });

    const res = await send(h);
    expect(res.status).toBe(429);
    expect(JSON.parse(res.text)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(fake.messages()).toHaveLength(1);
    expect(sentSlow(fake.messages()[0])).toBe(false);
    const row = await connectionRow(h, 'sub');
    // The announced reset, not a computed backoff.
    expect(row.rateLimitedUntil).toBe(resetAt * 1000);
    expect((await claudeStatus(h, 'sub')).lane.kind).toBe('idle');

    // Cooling: the next request is refused before anything goes upstream.
    const again = await send(h);
    expect(again.status).toBe(503);
    expect(fake.messages()).toHaveLength(1);
  });

  it('LOWP-4: the offer is not taken when the 429 carries a control-arm offer, and the 429 cools the connection', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const resetAt = nowSeconds() + 600;
    fake.setWall({ resetAt, offer: 'control' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
    expect((await send(h)).status).toBe(429);
    expect(fake.messages()).toHaveLength(1);
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBe(resetAt * 1000);
    expect((await claudeStatus(h, 'sub')).lane.kind).toBe('idle');
  });

  it('LOWP-10: slow-status weekly_limit ends the lane and the 429 goes on to cooldown', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const resetAt = nowSeconds() + 3600;
    fake.setWall({ resetAt });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
    expect((await send(h)).status).toBe(200);

    fake.enqueueSlow({ kind: 'slow-status', status: 'weekly_limit', httpStatus: 429 });
    const res = await send(h);
    expect(res.status).toBe(429);
    expect(fake.messages()).toHaveLength(3);
    expect(sentSlow(fake.messages()[2])).toBe(true);
    expect((await claudeStatus(h, 'sub')).lane).toMatchObject({ kind: 'ended', reason: 'weekly' });
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBe(resetAt * 1000);
  });

  it('LOWP-13: the lane lives in memory only; after a restart one more wall 429 is needed before the offer is taken again', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
    expect((await send(scene.h)).status).toBe(200);
    expect(fake.messages().map(sentSlow)).toEqual([false, true]);

    const h = await scene.restart();
    expect((await claudeStatus(h, 'sub')).lane.kind).toBe('idle');
    expect((await send(h)).status).toBe(200);
    expect(fake.messages().map(sentSlow)).toEqual([false, true, false, true]);
  });

  it('LOWP-4/LOWP-6: concurrent requests at the wall all join the one lane and succeed; nothing cools', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
    const results = await Promise.all(Array.from({ length: 6 }, () => send(h)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const slow = fake.messages().filter(sentSlow);
    expect(slow).toHaveLength(6);
    expect(slow.every((r) => r.response?.status === 200)).toBe(true);
    expect(
      fake
        .messages()
        .filter((r) => !sentSlow(r))
        .every((r) => r.response?.status === 429),
    ).toBe(true);
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBeNull();
    expect((await claudeStatus(h, 'sub')).lane).toMatchObject({ kind: 'active', requestsServed: 6 });
  });
});

describe('claude-oauth usage windows', () => {
  it('TEST-8/PROD-5: after a normal answer claude.status shows the 5h and 7d utilization and resets from the headers, and claude.changed fires', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setUsage({
      fiveHour: { utilization: 0.61, resetAt: nowSeconds() + 4000 },
      sevenDay: { utilization: 0.25, resetAt: nowSeconds() + 200_000 },
    });
    const h = await scene.start({ connections: [claudeConnection('sub', fake)] });
    expect((await claudeStatus(h, 'sub')).usage).toBeNull();

    expect((await send(h)).status).toBe(200);
    const status = await claudeStatus(h, 'sub');
    expect(status.usage).toMatchObject({
      status: 'allowed',
      representativeClaim: 'five_hour',
      fiveHour: { utilization: 0.61, resetsAtSeconds: fake.usage.fiveHour.resetAt, status: 'allowed' },
      sevenDay: { utilization: 0.25, resetsAtSeconds: fake.usage.sevenDay.resetAt, status: 'allowed' },
    });
    expect(status.usage?.observedAt).toBeGreaterThan(Date.now() - 10_000);
    expect(status.lane.kind).toBe('idle');
    await until(() => scene.events.some((e) => e.type === 'claude.changed'), 'claude.changed');
    const event = scene.events.find((e) => e.type === 'claude.changed');
    expect(event?.type === 'claude.changed' ? event.payload.status[0]?.usage?.fiveHour?.utilization : null).toBe(0.61);
  });
});
