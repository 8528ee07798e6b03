import { describe, expect, it } from 'vitest';
import type { ComboView } from '../../src-shared/domain/combo';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { Route } from '../../src-shared/domain/route';
import { buildCatalog } from './build-catalog';
import { resolveTargets } from './resolve-targets';

function view(name: string, models: string[]): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind: 'anthropic',
    baseUrl: null,
    effectiveBaseUrl: 'https://api.anthropic.com',
    models,
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

const secret = { type: 'api-key', apiKey: 'sk-test' } as const;
const combo = (name: string, targets: ComboView['targets']): ComboView => ({
  id: name,
  name,
  targets,
  strategy: 'priority',
  createdAt: 0,
  updatedAt: 0,
});

function catalogWith(routes: Route[], anyModel = false) {
  const connections = [
    { view: view('main-acct', ['claude-sonnet-4-6']), secret },
    { view: view('cheap', ['claude-haiku-4-5']), secret },
    ...(anyModel ? [{ view: view('open', []), secret }] : []),
  ];
  return buildCatalog(
    connections,
    [combo('main', [{ connection: 'main-acct', model: null }]), combo('fast', [{ connection: 'cheap', model: null }])],
    routes,
  );
}

const picked = (r: ReturnType<typeof resolveTargets>) =>
  r.kind === 'targets'
    ? { via: r.via, targets: r.targets.map((t) => `${t.connection.view.name}:${t.upstreamModel}`), route: r.route }
    : r.kind;

describe('model routes (issue 9 §5)', () => {
  const recipe: Route[] = [
    { match: '*haiku*', to: 'fast' },
    { match: '*', to: 'main' },
  ];

  it('issue 9 §5: the first matching route decides; `*` as the last route is the catch-all', () => {
    const catalog = catalogWith(recipe);
    expect(picked(resolveTargets(catalog, 'claude-3-5-haiku-20241022', 'anthropic'))).toEqual({
      via: 'route',
      targets: ['cheap:claude-haiku-4-5'],
      route: '*haiku*',
    });
    expect(picked(resolveTargets(catalog, 'claude-opus-4-8[1m]', 'anthropic'))).toEqual({
      via: 'route',
      targets: ['main-acct:claude-sonnet-4-6'],
      route: '*',
    });
  });

  it('issue 9 §5: exact combo names and models a connection lists win over routes', () => {
    const catalog = catalogWith(recipe);
    expect(picked(resolveTargets(catalog, 'fast', 'anthropic'))).toMatchObject({
      via: 'combo',
      targets: ['cheap:claude-haiku-4-5'],
    });
    expect(picked(resolveTargets(catalog, 'claude-haiku-4-5', 'anthropic'))).toMatchObject({
      via: 'model',
      targets: ['cheap:claude-haiku-4-5'],
    });
    expect(picked(resolveTargets(catalog, 'main-acct/claude-x', 'anthropic'))).toMatchObject({
      via: 'connection',
      targets: ['main-acct:claude-x'],
    });
  });

  it('issue 9 §5: routes decide before the "any connection that serves it" fallback; without a match that fallback still applies', () => {
    const withRoute = catalogWith([{ match: 'gpt-*', to: 'cheap/claude-haiku-4-5' }], true);
    expect(picked(resolveTargets(withRoute, 'gpt-5', 'anthropic'))).toEqual({
      via: 'route',
      targets: ['cheap:claude-haiku-4-5'],
      route: 'gpt-*',
    });
    expect(picked(resolveTargets(withRoute, 'mystery', 'anthropic'))).toMatchObject({
      via: 'model',
      targets: ['open:mystery'],
    });
  });

  it('issue 9 §5: a route to a plain model id resolves it like a client model; a route to nothing is an unknown model', () => {
    const catalog = catalogWith([
      { match: 'sonnet', to: 'claude-sonnet-4-6' },
      { match: 'nowhere', to: 'no-such-combo' },
    ]);
    expect(picked(resolveTargets(catalog, 'sonnet', 'anthropic'))).toMatchObject({
      via: 'route',
      targets: ['main-acct:claude-sonnet-4-6'],
    });
    expect(picked(resolveTargets(catalog, 'nowhere', 'anthropic'))).toBe('unknown_model');
  });
});
