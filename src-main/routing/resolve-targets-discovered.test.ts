import { describe, expect, it } from 'vitest';
import type { ConnectionKind, ConnectionView } from '../../src-shared/domain/connection';
import type { DiscoveredModel } from '../providers/models-discovery';
import { buildCatalog } from './build-catalog';
import { listModels, refusingFormat, resolveTargets } from './resolve-targets';

function view(name: string, kind: ConnectionKind, extra: Partial<ConnectionView> = {}): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind,
    baseUrl: null,
    effectiveBaseUrl: 'https://example.test',
    models: [],
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

const key = { type: 'api-key', apiKey: 'sk-test' } as const;
const found = (...ids: string[]): DiscoveredModel[] => ids.map((id) => ({ id, displayName: null, createdAt: null }));
const names = (r: ReturnType<typeof resolveTargets>) =>
  r.kind === 'targets' ? r.targets.map((t) => t.connection.view.name) : [];

describe('discovered models in the routing catalog (issue 13 §5)', () => {
  const catalog = buildCatalog(
    [
      { view: view('claude', 'anthropic'), secret: key, discovered: found('claude-sonnet-4-6', 'claude-opus-4-7') },
      { view: view('glm', 'openai-compatible', { priority: 2 }), secret: key, discovered: found('glm-4.6') },
      // A connection's own list is the operator's word: what its upstream lists is not added.
      { view: view('own', 'openai', { models: ['gpt-4o'] }), secret: key, discovered: found('gpt-secret-preview') },
    ],
    [],
  );

  it('listModels (and so /v1/models and "Available: …") names discovered ids, for both shapes', () => {
    for (const wire of ['anthropic', 'openai'] as const) {
      const listed = listModels(catalog, wire);
      expect(listed).toEqual(expect.arrayContaining(['claude-opus-4-7', 'claude-sonnet-4-6', 'glm-4.6', 'gpt-4o']));
      expect(listed).not.toContain('gpt-secret-preview');
    }
    expect(catalog.byName.get('own')?.discovered).toEqual([]);
  });

  it('a discovered id goes first to the connection that listed it, even of the other format (translated)', () => {
    expect(names(resolveTargets(catalog, 'glm-4.6', 'anthropic'))).toEqual(['glm', 'claude']);
    expect(names(resolveTargets(catalog, 'claude-opus-4-7', 'openai'))).toEqual(['claude', 'glm']);
    expect(names(resolveTargets(catalog, 'claude-opus-4-7', 'anthropic'))).toEqual(['claude']);
  });

  it('discovery never restricts: an id no upstream listed still goes to every any-model connection', () => {
    expect(names(resolveTargets(catalog, 'claude-opus-4-8', 'anthropic'))).toEqual(['claude']);
    expect(names(resolveTargets(catalog, 'kimi-k2', 'openai'))).toEqual(['glm']);
  });

  it('a connection that refuses translated requests is named by refusingFormat, not routed to', () => {
    const strict = buildCatalog(
      [{ view: view('o1', 'openai', { acceptTranslated: false }), secret: key, discovered: found('gpt-4o') }],
      [],
    );
    expect(resolveTargets(strict, 'gpt-4o', 'anthropic')).toEqual({ kind: 'unknown_model', available: [] });
    expect(refusingFormat(strict, 'gpt-4o', 'anthropic')).toEqual([{ connection: 'o1', format: 'openai' }]);
    expect(refusingFormat(strict, 'gpt-4o', 'openai')).toEqual([]);
    expect(listModels(strict, 'openai')).toEqual(['gpt-4o']);
  });
});
