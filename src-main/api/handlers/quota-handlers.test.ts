import { afterEach, describe, expect, it } from 'vitest';
import { connectionDraft, setUpHandlers, T0, type HandlersHarness } from './handlers-harness.testkit';

const harnesses: HandlersHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

const hourly = (limit: number) => ({ unit: 'requests', window: 'hourly', limit });

function setUp() {
  const set = setUpHandlers();
  harnesses.push(set.h);
  const bob = set.h.storage.keys.create({ name: 'bob' }, T0);
  if (!bob.ok) throw new Error(bob.error.message);
  // A Kimi account: the catalog knows its plan (QPLAN-2).
  const kimi = set.h.storage.connections.upsert(
    { ...connectionDraft('kimi-1'), kind: 'openai-compatible', baseUrl: 'https://api.moonshot.ai/v1' },
    T0,
  );
  set.h.settle();
  return { ...set, bobId: bob.value.key.id, kimi };
}

const team = {
  name: 'team',
  connection: 'max-1',
  dimensions: [hourly(20)],
  allocations: [
    { key: 'laptop', weight: 50, policy: 'hard' },
    { key: 'bob', weight: 50, policy: 'soft', capValue: 200, capUnit: 'requests' },
  ],
};

describe('quota handlers', () => {
  it('QUI-12: quota.listPools is [] with no pools; upsertPool stores it, reloads the engine and lists it', async () => {
    const { h, keyId, bobId } = setUp();
    expect(await h.router.call('quota.listPools', undefined)).toEqual({ ok: true, value: [] });
    const saved = await h.router.call('quota.upsertPool', team);
    expect(saved).toMatchObject({
      ok: true,
      value: {
        name: 'team',
        connections: ['max-1'],
        effectiveDimensions: [hourly(20)],
        dimensionsSource: 'pool',
        allocations: [
          { keyId, key: 'laptop', effectiveWeight: 50, policy: 'hard' },
          { keyId: bobId, key: 'bob', capValue: 200, capUnit: 'requests', policy: 'soft' },
        ],
      },
    });
    expect(h.quotaReloads()).toBe(1);
    expect(await h.router.call('quota.listPools', undefined)).toEqual({ ok: true, value: [saved.ok && saved.value] });
  });

  it('QUI-12: unknown keys and connections are invalid_input naming each path; nothing stored, no reload', async () => {
    const { h } = setUp();
    const result = await h.router.call('quota.upsertPool', {
      ...team,
      connection: undefined,
      connections: ['max-1', 'ghost'],
      allocations: [{ key: 'carol' }],
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        details: {
          issues: [
            { path: 'connections.1', message: 'no connection named "ghost"' },
            { path: 'allocations.0.key', message: 'no key named "carol"' },
          ],
        },
      },
    });
    // A schema refusal (weights above 100) is invalid_input from the router, before the repository.
    const heavy = await h.router.call('quota.upsertPool', {
      ...team,
      allocations: [
        { key: 'laptop', weight: 60 },
        { key: 'bob', weight: 60 },
      ],
    });
    expect(heavy).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(h.storage.quotaPools.list()).toEqual([]);
    expect(h.quotaReloads()).toBe(0);
  });

  it('QUI-12: removePool removes by name and reloads; an unknown name is not_found', async () => {
    const { h } = setUp();
    await h.router.call('quota.upsertPool', team);
    expect(await h.router.call('quota.removePool', { name: 'team' })).toEqual({ ok: true, value: { removed: true } });
    expect(h.quotaReloads()).toBe(2);
    expect(await h.router.call('quota.removePool', { name: 'team' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(h.quotaReloads()).toBe(2);
  });

  it('QUI-10: poolUsage answers by id or by name with consumed, fairShare and remaining per key; unknown is not_found', async () => {
    const { h } = setUp();
    const saved = await h.router.call('quota.upsertPool', team);
    const id = saved.ok ? (saved.value as { id: string }).id : '';
    h.setNow(T0 + 5_000);
    const byId = await h.router.call('quota.poolUsage', { id });
    expect(byId).toMatchObject({
      ok: true,
      value: {
        poolId: id,
        name: 'team',
        at: T0 + 5_000,
        dimensions: [
          {
            dimensionKey: `${id}:requests:hourly`,
            windowMs: 3_600_000,
            limit: 20,
            keys: [
              { key: 'laptop', consumed: 0, fairShare: 10, remaining: 10, borrowing: false },
              { key: 'bob', consumed: 0, fairShare: 10, remaining: 10, borrowing: false },
            ],
          },
        ],
      },
    });
    expect(await h.router.call('quota.poolUsage', { id: 'team' })).toEqual(byId);
    expect(await h.router.call('quota.poolUsage', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('QPLAN-1 QPLAN-3 QUI-13: listPlans gives every connection its plan: catalog for Kimi, none for Anthropic', async () => {
    const { h } = setUp();
    const plans = await h.router.call('quota.listPlans', undefined);
    expect(plans).toEqual({
      ok: true,
      value: expect.arrayContaining([
        {
          connection: 'kimi-1',
          catalogProvider: 'kimi',
          source: 'catalog',
          dimensions: [hourly(1500)],
          catalogDimensions: [hourly(1500)],
        },
        { connection: 'max-1', catalogProvider: null, source: 'none', dimensions: [], catalogDimensions: [] },
      ]),
    });
    expect(plans.ok && (plans.value as unknown[]).length).toBe(3);
  });

  it('QUI-14 QUI-15: setPlan overrides the catalog (by name or id); removePlan falls back to it; both reload', async () => {
    const { h, kimi } = setUp();
    const set = await h.router.call('quota.setPlan', { connection: 'kimi-1', dimensions: [hourly(900)] });
    expect(set).toEqual({
      ok: true,
      value: {
        connection: 'kimi-1',
        catalogProvider: 'kimi',
        source: 'manual',
        dimensions: [hourly(900)],
        catalogDimensions: [hourly(1500)],
      },
    });
    expect(await h.router.call('quota.setPlan', { connection: kimi.id, dimensions: [hourly(800)] })).toMatchObject({
      ok: true,
      value: { connection: 'kimi-1', dimensions: [hourly(800)] },
    });
    expect(h.quotaReloads()).toBe(2);
    // A pool on that connection without its own dimensions follows the override.
    await h.router.call('quota.upsertPool', { name: 'k', connection: 'kimi-1', allocations: [{ key: 'bob' }] });
    expect(h.storage.quotaPools.list()[0]).toMatchObject({ dimensionsSource: 'manual-plan' });

    const removed = await h.router.call('quota.removePlan', { connection: 'kimi-1' });
    expect(removed).toMatchObject({ ok: true, value: { source: 'catalog', dimensions: [hourly(1500)] } });
    expect(h.quotaReloads()).toBe(4);
    // Nothing left to remove: the same answer, no reload.
    expect(await h.router.call('quota.removePlan', { connection: 'kimi-1' })).toEqual(removed);
    expect(h.quotaReloads()).toBe(4);
    const anthropic = await h.router.call('quota.removePlan', { connection: 'max-1' });
    expect(anthropic).toMatchObject({ ok: true, value: { source: 'none', dimensions: [] } });
  });

  it('QUI-14: a plan for an unknown connection is not_found; an empty plan is invalid_input', async () => {
    const { h } = setUp();
    expect(await h.router.call('quota.setPlan', { connection: 'ghost', dimensions: [hourly(1)] })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await h.router.call('quota.setPlan', { connection: 'max-1', dimensions: [] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await h.router.call('quota.removePlan', { connection: 'ghost' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(h.quotaReloads()).toBe(0);
  });

  it('QDRV: storeStatus answers what the engine reports', async () => {
    const { h } = setUp();
    expect(await h.router.call('quota.storeStatus', undefined)).toMatchObject({
      ok: true,
      value: { configured: 'sqlite', active: 'sqlite', fallbackReason: null },
    });
  });
});
