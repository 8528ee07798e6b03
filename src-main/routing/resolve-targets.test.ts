import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import { buildCatalog } from './build-catalog';
import { listModels, resolveTargets } from './resolve-targets';

function view(name: string, extra: Partial<ConnectionView> = {}): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind: 'anthropic',
    baseUrl: null,
    effectiveBaseUrl: 'https://api.anthropic.com',
    models: ['claude-sonnet-4-5'],
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: null,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

const secret = { type: 'api-key', apiKey: 'sk-test' } as const;
// A JSON-parsed alias map, as the repository returns it: `__proto__` is an own key here.
const parsedAliases = JSON.parse('{"__proto__":"claude-sonnet-4-5","fast":"claude-haiku-4-5"}') as Record<
  string,
  string
>;
const catalog = buildCatalog(
  [{ view: view('a1', { modelAliases: parsedAliases }), secret }],
  [
    {
      id: 'c1',
      name: 'main',
      targets: [{ connection: 'a1', model: null }],
      strategy: 'priority',
      createdAt: 0,
      updatedAt: 0,
    },
  ],
);

describe('target resolution with names that are Object.prototype members', () => {
  it('ISSUE-8: constructor, toString, hasOwnProperty and friends are unknown models, not aliases', () => {
    for (const model of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__']) {
      expect(resolveTargets(catalog, model, 'anthropic').kind, model).toBe('unknown_model');
    }
  });

  it('ISSUE-8: a configured __proto__ alias is served and mapped like any other alias', () => {
    const resolution = resolveTargets(catalog, '__proto__', 'anthropic');
    expect(resolution).toMatchObject({ kind: 'targets', via: 'model' });
    if (resolution.kind === 'targets')
      expect(resolution.targets.map((t) => t.upstreamModel)).toEqual(['claude-sonnet-4-5']);
  });

  it('ISSUE-8: connection/constructor sends the name itself, a string, to that connection', () => {
    const resolution = resolveTargets(catalog, 'a1/constructor', 'anthropic');
    expect(resolution).toMatchObject({ kind: 'targets', via: 'connection' });
    if (resolution.kind === 'targets') expect(resolution.targets[0]?.upstreamModel).toBe('constructor');
  });

  it('ISSUE-8: main/toString goes through the combo with the name as given', () => {
    const resolution = resolveTargets(catalog, 'main/toString', 'anthropic');
    expect(resolution).toMatchObject({ kind: 'targets', via: 'combo' });
    if (resolution.kind === 'targets') expect(resolution.targets[0]?.upstreamModel).toBe('toString');
  });

  it('ROUTE-8: the list of available names holds own aliases only', () => {
    expect(listModels(catalog, 'anthropic')).toEqual(['__proto__', 'claude-sonnet-4-5', 'fast', 'main']);
  });
});

describe('target resolution is decided once per catalog', () => {
  it('ROUTE-8: each call gets fresh Target objects with the same connections and models', () => {
    const first = resolveTargets(catalog, 'main', 'anthropic');
    const again = resolveTargets(catalog, 'main', 'anthropic');
    expect(again).toEqual(first);
    if (first.kind !== 'targets' || again.kind !== 'targets') throw new Error('expected targets');
    expect(again.targets).not.toBe(first.targets);
    expect(again.targets[0]).not.toBe(first.targets[0]);
    expect(again.targets[0]?.connection).toBe(first.targets[0]?.connection);
  });

  it('ROUTE-8: a new catalog (a config change) is resolved anew, never from the old one', () => {
    const before = resolveTargets(catalog, 'a1/claude-sonnet-4-5', 'anthropic');
    expect(before).toMatchObject({ kind: 'targets', via: 'connection' });
    const disabled = buildCatalog([{ view: view('a1', { enabled: false }), secret }], []);
    expect(resolveTargets(disabled, 'a1/claude-sonnet-4-5', 'anthropic')).toMatchObject({
      kind: 'targets',
      targets: [],
      excluded: [{ connection: 'a1', reason: 'disabled' }],
    });
    expect(resolveTargets(catalog, 'a1/claude-sonnet-4-5', 'anthropic')).toEqual(before);
  });
});
