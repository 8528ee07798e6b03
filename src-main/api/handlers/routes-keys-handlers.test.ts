import { afterEach, describe, expect, it } from 'vitest';
import { setUpHandlers, type HandlersHarness } from './handlers-harness.testkit';

const harnesses: HandlersHarness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

function setUp() {
  const set = setUpHandlers();
  harnesses.push(set.h);
  return set;
}

describe('routes handlers', () => {
  it('ISSUE9-ROUTES: routes.replace stores the ordered list, reloads the catalog and pushes routes.changed', async () => {
    const { h } = setUp();
    const routes = [
      { match: '*haiku*', to: 'main' },
      { match: 'claude-opus-*', to: 'claude-opus-4-8' },
      { match: '*', to: 'max-2/claude-opus-4-8' },
    ];
    expect(await h.router.call('routes.replace', { routes })).toEqual({ ok: true, value: routes });
    expect(await h.router.call('routes.list', undefined)).toEqual({ ok: true, value: routes });
    expect(h.reloads()).toBe(1);
    expect(h.events.filter((e) => e.type === 'routes.changed')).toEqual([
      { type: 'routes.changed', payload: { routes } },
    ]);
  });

  it('ISSUE9-ROUTES: an unknown target or an unreachable route is invalid_input with each path, and nothing is stored', async () => {
    const { h } = setUp();
    const result = await h.router.call('routes.replace', {
      routes: [
        { match: '*', to: 'main' },
        { match: '*haiku*', to: 'nowhere' },
      ],
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        details: {
          issues: [
            { path: 'routes.1.match', message: 'is unreachable: route 1 ("*") matches every model first' },
            {
              path: 'routes.1.to',
              message: '"nowhere" is not a combo, a connection/model or a model a connection lists',
            },
          ],
        },
      },
    });
    expect(h.storage.routes.list()).toEqual([]);
    expect(h.reloads()).toBe(0);
  });

  it('ISSUE9-ROUTES: a combo or connection a route goes to cannot be removed until the route changes', async () => {
    const { h } = setUp();
    await h.router.call('routes.replace', {
      routes: [
        { match: '*haiku*', to: 'main' },
        { match: '*', to: 'max-2/x' },
      ],
    });
    expect(await h.router.call('combos.remove', { name: 'main' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('route(s) 1') },
    });
    expect(await h.router.call('connections.remove', { name: 'max-2' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('route(s) 2') },
    });
    await h.router.call('routes.replace', { routes: [] });
    expect(await h.router.call('combos.remove', { name: 'main' })).toEqual({ ok: true, value: { removed: true } });
  });
});

describe('combos and keys handlers', () => {
  it('ISSUE9-STRATEGY: combos.upsert stores the strategy, priority when none is given', async () => {
    const { h } = setUp();
    expect(
      await h.router.call('combos.upsert', { name: 'rr', targets: ['max-1', 'max-2'], strategy: 'round-robin' }),
    ).toMatchObject({ ok: true, value: { strategy: 'round-robin' } });
    expect(await h.router.call('combos.upsert', { name: 'plain', targets: ['max-1'] })).toMatchObject({
      ok: true,
      value: { strategy: 'priority' },
    });
    expect(await h.router.call('combos.upsert', { name: 'bad', targets: ['max-1'], strategy: 'sticky' })).toMatchObject(
      { ok: false, error: { code: 'invalid_input' } },
    );
  });

  it('LEASE-3: keys.create stores scopes and allowed connections; an unknown connection or a lease key without any is refused', async () => {
    const { h } = setUp();
    const created = await h.router.call('keys.create', {
      name: 'bot',
      scopes: ['lease:exclusive'],
      allowedConnections: ['max-1', 'max-2'],
    });
    expect(created).toMatchObject({
      ok: true,
      value: { key: { scopes: ['lease:exclusive'], allowedConnections: ['max-1', 'max-2'] } },
    });
    expect(await h.router.call('keys.create', { name: 'bot2', allowedConnections: ['ghost'] })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        details: { issues: [{ path: 'allowedConnections.0', message: 'unknown connection "ghost"' }] },
      },
    });
    expect(await h.router.call('keys.create', { name: 'bot3', scopes: ['lease:exclusive'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', details: { issues: [{ path: 'allowedConnections' }] } },
    });
    expect(
      h.storage.keys
        .list()
        .map((k) => k.name)
        .sort(),
    ).toEqual(['bot', 'laptop']);
  });
});
