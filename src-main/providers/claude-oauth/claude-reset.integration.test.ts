import { describe, expect, it } from 'vitest';
import { call, connectionRow } from '../../resilience/resilience-it.testkit';
import { claudeConnection } from '../../testing/fake-claude/fake-claude';
import {
  activityEntries,
  answerText,
  bearer,
  claudeStatus,
  nowSeconds,
  send,
  sentSlow,
  useClaudeScene,
} from '../../testing/fake-claude/claude-scene';

/* The automatic session-limit reset (RESET) through the real proxy against the fake Claude service. */
const scene = useClaudeScene();

describe('claude-oauth automatic limit reset', () => {
  it('RESET-2/RESET-6: with both opt-ins the reset is claimed first and the request is retried at full speed', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const h = await scene.start({
      connections: [
        claudeConnection('sub', fake, {
          lowPriorityMode: true,
          autoLimitReset: true,
          organizationUUID: fake.organizationUuid,
        }),
      ],
    });

    const res = await send(h);
    expect(res.status).toBe(200);
    expect(answerText(res.text)).toBe('Hello from sub.');
    expect(fake.statusCalls()).toHaveLength(1);
    expect(fake.statusCalls()[0]?.path).toBe('/api/oauth/usage?at_wall=1&skip_spend=1');
    expect(fake.claimCalls()).toHaveLength(1);
    expect(fake.claimCalls()[0]?.json).toEqual({ program: 'juniper_tide' });
    expect(bearer(fake.claimCalls()[0])).toBe(fake.tokens.accessToken);
    expect(fake.bootstrapCalls()).toHaveLength(0);
    const [wall, retry] = fake.messages();
    expect(fake.messages()).toHaveLength(2);
    expect(wall?.response?.status).toBe(429);
    // RESET-6: full speed, not the lane.
    expect(sentSlow(wall)).toBe(false);
    expect(sentSlow(retry)).toBe(false);
    expect(retry?.response?.status).toBe(200);
    const [entry] = await activityEntries(h, 1);
    expect(entry).toMatchObject({ status: 200, servedVia: 'limit-reset' });
    const status = await claudeStatus(h, 'sub');
    expect(status.lastReset).toMatchObject({ outcome: 'reset' });
    expect(status.lane.kind).toBe('idle');
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBeNull();
  });

  it('RESET-2: concurrent walls share one status query and one claim; every request is retried at full speed', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const h = await scene.start({
      connections: [
        claudeConnection('sub', fake, {
          lowPriorityMode: true,
          autoLimitReset: true,
          organizationUUID: fake.organizationUuid,
        }),
      ],
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => send(h)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(fake.statusCalls()).toHaveLength(1);
    expect(fake.claimCalls()).toHaveLength(1);
    expect(fake.messages().some(sentSlow)).toBe(false);
    expect(fake.messages().filter((r) => r.response?.status === 200)).toHaveLength(5);
  });

  it('RESET-7/RESET-9: a second wall within the memo window does not claim again and continues in the lane', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const h = await scene.start({
      connections: [
        claudeConnection('sub', fake, {
          lowPriorityMode: true,
          autoLimitReset: true,
          organizationUUID: fake.organizationUuid,
        }),
      ],
    });
    expect((await send(h)).status).toBe(200);
    expect(fake.claimCalls()).toHaveLength(1);

    // The wall is back at once (say the reset was spent by another client).
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const res = await send(h);
    expect(res.status).toBe(200);
    expect(fake.statusCalls()).toHaveLength(1);
    expect(fake.claimCalls()).toHaveLength(1);
    // The memo's "reset moments ago" buys one full-speed retry; its wall then goes to the lane, not
    // into a loop of full-speed retries (there were 200 of them, then a 502 "unreachable").
    const after = fake
      .messages()
      .slice(2)
      .map((r) => [r.response?.status, sentSlow(r)]);
    expect(after).toEqual([
      [429, false],
      [429, false],
      [200, true],
    ]);
    const [latest] = await activityEntries(h, 2);
    expect(latest).toMatchObject({ status: 200, servedVia: 'limit-reset' });
    expect((await claudeStatus(h, 'sub')).lane.kind).toBe('active');
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBeNull();
  });

  it('RESET-9: autoLimitReset alone, a second wall within the memo window ends in cooldown after one retry, never a loop', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const h = await scene.start({
      connections: [claudeConnection('sub', fake, { autoLimitReset: true, organizationUUID: fake.organizationUuid })],
    });
    expect((await send(h)).status).toBe(200);
    const resetAt = nowSeconds() + 1200;
    fake.setWall({ resetAt });
    const res = await send(h);
    expect(res.status).toBe(429);
    expect(
      fake
        .messages()
        .slice(2)
        .map((r) => [r.response?.status, sentSlow(r)]),
    ).toEqual([
      [429, false],
      [429, false],
    ]);
    expect(fake.claimCalls()).toHaveLength(1);
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBe(resetAt * 1000);
  });

  it('RESET-7/RESET-9: already_used is remembered (no second claim) and the wall goes on to the lane', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    fake.setClaim({ result: 'already_used' });
    const h = await scene.start({
      connections: [
        claudeConnection('sub', fake, {
          lowPriorityMode: true,
          autoLimitReset: true,
          organizationUUID: fake.organizationUuid,
        }),
      ],
    });
    const res = await send(h);
    expect(res.status).toBe(200);
    expect(fake.claimCalls()).toHaveLength(1);
    expect(fake.messages().map(sentSlow)).toEqual([false, true]);
    const status = await claudeStatus(h, 'sub');
    expect(status.lastReset).toMatchObject({ outcome: 'already_used' });
    expect(status.lane.kind).toBe('active');
    expect((await activityEntries(h, 1))[0]).toMatchObject({ servedVia: 'low-priority-accepted' });

    // The lane is active now, so a later request rides it; no status or claim again.
    expect((await send(h)).status).toBe(200);
    expect(fake.statusCalls()).toHaveLength(1);
    expect(fake.claimCalls()).toHaveLength(1);
  });

  it('RESET-9: autoLimitReset alone with no reset offered leaves the 429 to normal cooldown until the announced reset', async () => {
    const fake = await scene.claude({ name: 'sub' });
    const resetAt = nowSeconds() + 1800;
    fake.setWall({ resetAt });
    fake.setResetOffer({ available: false });
    const h = await scene.start({
      connections: [claudeConnection('sub', fake, { autoLimitReset: true, organizationUUID: fake.organizationUuid })],
    });
    const res = await send(h);
    expect(res.status).toBe(429);
    expect(fake.statusCalls()).toHaveLength(1);
    expect(fake.claimCalls()).toHaveLength(0);
    expect(fake.messages()).toHaveLength(1);
    expect((await connectionRow(h, 'sub')).rateLimitedUntil).toBe(resetAt * 1000);
    expect((await claudeStatus(h, 'sub')).lastReset).toMatchObject({ outcome: 'not_offered' });
  });

  it('RESET-5: without organizationUUID it is fetched from the bootstrap at start, saved on the connection, and the claim uses it', async () => {
    const fake = await scene.claude({ name: 'sub' });
    fake.setWall({ resetAt: nowSeconds() + 3600 });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { autoLimitReset: true })] });
    const deadline = Date.now() + 5_000;
    let stored = (await call(h, 'connections.list', undefined)).find((c) => c.name === 'sub');
    while (stored?.providerSpecificData.organizationUUID === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      stored = (await call(h, 'connections.list', undefined)).find((c) => c.name === 'sub');
    }
    expect(stored?.providerSpecificData.organizationUUID).toBe(fake.organizationUuid);
    expect(fake.bootstrapCalls()).toHaveLength(1);
    const res = await send(h);
    expect(res.status).toBe(200);
    expect(fake.bootstrapCalls()).toHaveLength(1);
    expect(fake.claimCalls()[0]?.path).toBe(`/api/organizations/${fake.organizationUuid}/reset_rate_limits`);
  });
});
