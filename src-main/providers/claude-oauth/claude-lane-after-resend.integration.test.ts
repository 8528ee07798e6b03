import { describe, expect, it } from 'vitest';
import { connectionRow } from '../../resilience/resilience-it.testkit';
import { claudeConnection } from '../../testing/fake-claude/fake-claude';
import { fakeToken } from '../../testing/fake-claude/fake-claude-account';
import {
  activityEntries,
  bearer,
  claudeStatus,
  nowSeconds,
  send,
  sentSlow,
  useClaudeScene,
} from '../../testing/fake-claude/claude-scene';

/*
 * LOWP-12: the usage-limit check runs after the executor's own re-sends inside one attempt. Leeway
 * never rewrites a body, so it has none of the seed's 400-driven re-sends (context editing, thinking
 * clamping, parameter learning); the re-send it does make inside an attempt is the one after a 401
 * with a refreshed token. A wall 429 that appears only on that re-send must still reach the lane.
 */
const scene = useClaudeScene();

describe('claude-oauth: the limit check after an in-attempt re-send', () => {
  it('LOWP-12, TEST-8: a wall 429 first seen on the re-send after a 401 refresh is taken by the lane, served slow, and never cools', async () => {
    const fake = await scene.claude({ name: 'sub', text: 'served after refresh and wall' });
    const h = await scene.start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] });
    const resetAt = nowSeconds() + 3_600;
    fake.revokeAccessToken();
    fake.setWall({ resetAt });

    const res = await send(h);
    expect(res.status).toBe(200);
    const [refused, walled, slow] = fake.messages();
    expect(fake.messages()).toHaveLength(3);
    expect(refused?.response?.status).toBe(401);
    // The re-send carries the refreshed token and meets the wall: the limit check sees it.
    expect(bearer(walled)).toBe(fakeToken('access', 'sub', 1));
    expect(walled?.response?.status).toBe(429);
    expect(sentSlow(walled)).toBe(false);
    expect(sentSlow(slow)).toBe(true);
    expect(slow?.response?.status).toBe(200);
    expect(fake.tokenCalls()).toHaveLength(1);

    // LOWP-6: the intercepted 429 never reached cooldown handling.
    expect(await connectionRow(h, 'sub')).toMatchObject({ rateLimitedUntil: null, testStatus: 'active' });
    expect((await claudeStatus(h, 'sub')).lane).toMatchObject({ kind: 'active', resetsAtMs: resetAt * 1000 });
    const [entry] = await activityEntries(h, 1);
    expect(entry).toMatchObject({ connection: 'sub', status: 200, servedVia: 'low-priority-accepted', failover: [] });
  });
});
