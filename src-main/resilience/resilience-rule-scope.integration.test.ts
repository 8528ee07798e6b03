import { afterEach, describe, expect, it } from 'vitest';
import { openaiConnection } from '../testing/start-leeway';
import { askOpenAI, call, connectionRow, createScene, send } from './resilience-it.testkit';

/* A provider rule with connection scope (the agentrouter shape, declared by an operator) through the real proxy. */
const scene = createScene();
afterEach(() => scene.cleanup());

const QUOTA_BODY = { error: { message: '用户额度不足, 剩余额度: 0', type: 'new_api_error', code: null } };

async function twoGateways(disableCooling: boolean) {
  const first = await scene.fake('gw-1', 'openai');
  const second = await scene.fake('gw-2', 'openai');
  const h = await scene.start({
    connections: [
      { ...openaiConnection('gw1', first.url), models: ['m1'], priority: 1, disableCooling },
      { ...openaiConnection('gw2', second.url), models: ['m1'], priority: 2 },
    ],
  });
  // Declaring the rule is the opt-in to full-text matching and to honouring its scope (RESTATE-17).
  await call(h, 'resilience.updateSettings', {
    providerErrorRules: {
      '127.0.0.1': [{ status: 403, match: '额度不足', scope: 'connection', reason: 'quota_exhausted' }],
    },
  });
  return { first, second, h };
}

describe('rule scope: connection-wide quota', () => {
  it('RESTATE-14/RESTATE-16: the quota error cools the whole connection (never terminal), the next target serves, and later requests skip it', async () => {
    const { first, second, h } = await twoGateways(false);
    first.enqueue({ kind: 'status', status: 403, body: QUOTA_BODY });
    const served = await send(askOpenAI(h, 'm1'));
    expect(served.status).toBe(200);
    expect(served.headers.get('x-leeway-failover')).toBe('gw1=403');
    const row = await connectionRow(h, 'gw1');
    expect(row.testStatus).toBe('unavailable');
    expect(row.terminal).toBe(false);
    expect(row.rateLimitedUntil).toBeGreaterThan(Date.now());

    const again = await send(askOpenAI(h, 'm1'));
    expect(again.status).toBe(200);
    expect(again.headers.get('x-leeway-connection')).toBe('gw2');
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(2);
  });

  it('RESTATE-15/RESTATE-14: with disableCooling the connection is not cooled; the model is locked on it instead', async () => {
    const { first, h } = await twoGateways(true);
    first.enqueue({ kind: 'status', status: 403, body: QUOTA_BODY });
    expect((await send(askOpenAI(h, 'm1'))).status).toBe(200);
    const row = await connectionRow(h, 'gw1');
    expect(row.rateLimitedUntil === null || row.rateLimitedUntil <= Date.now()).toBe(true);
    const snapshot = await call(h, 'cooldowns.list', undefined);
    expect(snapshot.models.map((m) => [m.connection, m.model])).toEqual([['gw1', 'm1']]);
    // Within the same and later requests the locked model is not sent to gw1 again.
    expect((await send(askOpenAI(h, 'm1'))).headers.get('x-leeway-connection')).toBe('gw2');
    expect(first.requests).toHaveLength(1);
  });
});
