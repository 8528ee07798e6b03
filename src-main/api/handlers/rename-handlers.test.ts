import { afterEach, describe, expect, it } from 'vitest';
import { logEntry } from '../../db/request-log-fixtures.testkit';
import { connectionDraft, setUpHandlers, T0, type HandlersHarness } from './handlers-harness.testkit';

const harnesses: HandlersHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

function setUp() {
  const set = setUpHandlers();
  harnesses.push(set.h);
  return set;
}

describe('rename in place (issue 13 §8)', () => {
  it('connections.rename keeps the id and rewrites combo targets, routes and key allowlists in one go', async () => {
    const { h, max1, keyId } = setUp();
    h.storage.keys.setAccess(keyId, { scopes: [], allowedConnections: ['max-1', 'max-2'] });
    h.storage.combos.upsert({ name: 'pair', targets: [{ connection: 'max-1', model: 'claude-x', weight: 3 }] }, T0);
    h.storage.routes.replace([
      { match: '*haiku*', to: 'main' },
      { match: 'claude-*', to: 'max-1/claude-x' },
      { match: '*', to: 'max-2/claude-opus-4-8' },
    ]);
    h.setNow(T0 + 5);

    const result = await h.router.call('connections.rename', { from: 'max-1', to: 'work-max' });
    expect(result).toMatchObject({ ok: true, value: { id: max1.id, name: 'work-max', updatedAt: T0 + 5 } });

    expect(h.storage.connections.getById(max1.id)?.name).toBe('work-max');
    expect(h.storage.connections.getByName('max-1')).toBeNull();
    expect(h.storage.combos.getByName('main')?.targets).toEqual([{ connection: 'work-max', model: null }]);
    expect(h.storage.combos.getByName('pair')?.targets).toEqual([
      { connection: 'work-max', model: 'claude-x', weight: 3 },
    ]);
    expect(h.storage.routes.list()).toEqual([
      { match: '*haiku*', to: 'main' },
      { match: 'claude-*', to: 'work-max/claude-x' },
      { match: '*', to: 'max-2/claude-opus-4-8' },
    ]);
    expect(h.storage.keys.list()[0]?.allowedConnections).toEqual(['work-max', 'max-2']);
    expect(h.reloads()).toBe(1);
    expect(h.quotaReloads()).toBe(1);
    expect(h.events.map((e) => e.type).sort()).toEqual([
      'combos.changed',
      'connections.changed',
      'keys.changed',
      'routes.changed',
    ]);
  });

  it('connections.rename: pools, plans and pins hold the id, so they name the new name at once', async () => {
    const { h, max1, keyId } = setUp();
    const pool = await h.router.call('quota.upsertPool', {
      name: 'team',
      connection: 'max-1',
      allocations: [{ key: 'laptop', weight: 100 }],
    });
    expect(pool.ok).toBe(true);
    h.storage.quotaPools.setPlan(max1.id, [{ unit: 'requests', window: 'hourly', limit: 10 }], T0);
    h.storage.affinity.put({
      keyId,
      session: 's1',
      target: 'main',
      connectionId: max1.id,
      createdAt: T0,
      lastServedAt: T0,
      expiresAt: T0 + 60_000,
    });

    expect((await h.router.call('connections.rename', { from: 'max-1', to: 'work-max' })).ok).toBe(true);
    expect(h.storage.quotaPools.list().find((p) => p.name === 'team')?.connections).toEqual(['work-max']);
    expect(h.storage.quotaPools.plans().get(max1.id)).toEqual([{ unit: 'requests', window: 'hourly', limit: 10 }]);
    expect(h.storage.affinity.list().map((p) => p.connectionId)).toEqual([max1.id]);
  });

  it('connections.rename refuses a name a connection or combo already has, and an unknown connection', async () => {
    const { h } = setUp();
    expect(await h.router.call('connections.rename', { from: 'max-1', to: 'max-2' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', details: { issues: [{ path: 'to', message: 'is already taken' }] } },
    });
    expect(await h.router.call('connections.rename', { from: 'max-1', to: 'main' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await h.router.call('connections.rename', { from: 'ghost', to: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await h.router.call('connections.rename', { from: 'max-1', to: 'bad name!' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(h.storage.connections.getByName('max-1')).not.toBeNull();
    expect(h.events).toEqual([]);
  });

  it('connections.rename to its own name changes nothing', async () => {
    const { h, max1 } = setUp();
    expect(await h.router.call('connections.rename', { from: 'max-1', to: 'max-1' })).toMatchObject({
      ok: true,
      value: { id: max1.id, name: 'max-1', updatedAt: T0 },
    });
    expect(h.events).toEqual([]);
  });

  it('the request log keeps the old name on rows written before the rename', async () => {
    const { h, max1, keyId } = setUp();
    h.storage.requestLog.append(logEntry({ ts: T0, connection: 'max-1', keyName: 'laptop' }));
    h.storage.requestLog.flush();
    expect((await h.router.call('connections.rename', { from: 'max-1', to: 'work-max' })).ok).toBe(true);
    const rows = await h.router.call('activity.list', undefined);
    expect(rows).toMatchObject({ ok: true, value: [{ connection: 'max-1', keyName: 'laptop' }] });
    expect((await h.router.call('keys.rename', { id: keyId, name: 'renamed' })).ok).toBe(true);
    expect(await h.router.call('activity.list', undefined)).toMatchObject({ ok: true, value: [{ keyName: 'laptop' }] });
    expect(h.storage.connections.getById(max1.id)?.name).toBe('work-max');
  });

  it('combos.rename keeps id, strategy and targets and rewrites the routes that name it', async () => {
    const { h } = setUp();
    const before = h.storage.combos.getByName('main');
    h.storage.routes.replace([
      { match: '*haiku*', to: 'main' },
      { match: 'claude-*', to: 'main/claude-x' },
      { match: '*', to: 'max-2/claude-opus-4-8' },
    ]);
    h.setNow(T0 + 9);
    const result = await h.router.call('combos.rename', { from: 'main', to: 'coding:fast' });
    expect(result).toMatchObject({
      ok: true,
      value: { id: before?.id, name: 'coding:fast', strategy: 'priority', targets: before?.targets, updatedAt: T0 + 9 },
    });
    expect(h.storage.routes.list().map((r) => r.to)).toEqual([
      'coding:fast',
      'coding:fast/claude-x',
      'max-2/claude-opus-4-8',
    ]);
    expect(h.events.map((e) => e.type).sort()).toEqual(['combos.changed', 'routes.changed']);
    expect(h.reloads()).toBe(1);
  });

  it('combos.rename refuses a taken name (combo or connection) and an unknown combo', async () => {
    const { h } = setUp();
    h.storage.combos.upsert({ name: 'other', targets: [{ connection: 'max-2', model: null }] }, T0);
    for (const to of ['other', 'max-1']) {
      expect(await h.router.call('combos.rename', { from: 'main', to })).toMatchObject({
        ok: false,
        error: { code: 'conflict' },
      });
    }
    expect(await h.router.call('combos.rename', { from: 'nope', to: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(h.storage.combos.getByName('main')).not.toBeNull();
  });

  it('keys.rename keeps the id and the secret; a taken name is a conflict at `name`', async () => {
    const { h, keyId } = setUp();
    const other = h.storage.keys.create({ name: 'desktop' }, T0);
    if (!other.ok) throw new Error('setup');
    const result = await h.router.call('keys.rename', { id: keyId, name: 'work-laptop' });
    expect(result).toMatchObject({ ok: true, value: { id: keyId, name: 'work-laptop' } });
    expect(h.storage.keys.verify(other.value.plainKey)?.name).toBe('desktop');
    expect(h.events.map((e) => e.type)).toEqual(['keys.changed']);

    expect(await h.router.call('keys.rename', { id: keyId, name: 'desktop' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', details: { issues: [{ path: 'name' }] } },
    });
    expect(await h.router.call('keys.rename', { id: 'nope', name: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('a key renamed in the UI keeps its new name when a config file upserts it under the old one', async () => {
    const { h } = setUp();
    const plain = 'lw-from-config-file-0001';
    const first = h.storage.keys.upsertByName('from-config', plain, T0);
    if (!first.ok) throw new Error('setup');
    expect((await h.router.call('keys.rename', { id: first.value.id, name: 'renamed' })).ok).toBe(true);
    const again = h.storage.keys.upsertByName('from-config', plain, T0 + 1, {
      scopes: [],
      allowedConnections: ['max-2'],
    });
    expect(again).toMatchObject({
      ok: true,
      value: { id: first.value.id, name: 'renamed', allowedConnections: ['max-2'] },
    });
    expect(h.storage.keys.list().map((k) => k.name)).toEqual(['laptop', 'renamed']);
  });

  it('a connection renamed in the UI is created again under the old name by an upsert of that name', () => {
    // What a --config start does when the file still has the old name: the renamed one stays as it is.
    const { h, max1 } = setUp();
    h.storage.connections.rename(max1.id, 'work-max', T0 + 1);
    const again = h.storage.connections.upsert(connectionDraft('max-1'), T0 + 2);
    expect(again.id).not.toBe(max1.id);
    expect(h.storage.connections.getById(max1.id)?.name).toBe('work-max');
  });
});
