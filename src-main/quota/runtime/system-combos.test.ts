import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { COMBO_STRATEGIES } from '../../../src-shared/domain/combo';
import { buildCatalog } from '../../routing/build-catalog';
import { listModels, resolveTargets } from '../../routing/resolve-targets';
import { buildPoolIndex } from './pool-index';
import { systemCombosOf } from './system-combos';
import type { ResolvedPool } from '../quota-ports';

function view(name: string, models: string[] = []): ConnectionView {
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

function pool(name: string, connectionIds: string[]): ResolvedPool {
  return {
    id: `pool-${name}`,
    name,
    connectionIds,
    dimensions: [{ unit: 'requests', window: 'hourly', limit: 100 }],
    saturationThreshold: null,
    allocations: [
      {
        keyId: 'k',
        keyName: 'alice',
        weight: 100,
        effectiveWeight: 100,
        policy: 'hard',
        capValue: null,
        capUnit: null,
      },
    ],
  };
}

const connections = [view('a1', ['claude-sonnet-4-5']), view('a2', ['claude-sonnet-4-5']), view('solo')].map((v) => ({
  view: v,
  secret,
}));

describe('quota pools as system combos', () => {
  it('ROUTE-10: a pool over ≥ 2 connections becomes qtSd/<pool>; a one-connection pool does not', () => {
    const index = buildPoolIndex([pool('fam', ['id-a1', 'id-a2']), pool('one', ['id-solo'])]);
    const catalog = buildCatalog(connections, [], [], systemCombosOf(index.pools, new Map()));
    expect([...catalog.systemCombos.keys()]).toEqual(['qtSd/fam']);
    expect(catalog.combos.has('qtSd/fam')).toBe(false);
    expect(listModels(catalog, 'anthropic')).toContain('qtSd/fam');
    const r = resolveTargets(catalog, 'qtSd/fam', 'anthropic');
    if (r.kind !== 'targets') throw new Error('unresolved');
    expect(r.system?.strategy).toBe('quota-share');
    expect(r.targets.map((t) => [t.connection.view.name, t.upstreamModel])).toEqual([
      ['a1', 'claude-sonnet-4-5'],
      ['a2', 'claude-sonnet-4-5'],
    ]);
    // The internal strategy is never a public one.
    expect(COMBO_STRATEGIES as readonly string[]).not.toContain('quota-share');
  });

  it('ROUTE-10: qtSd/<pool>/<model> carries the client’s model to every account', () => {
    const index = buildPoolIndex([pool('fam', ['id-a1', 'id-a2'])]);
    const catalog = buildCatalog(connections, [], [], systemCombosOf(index.pools, new Map()));
    const r = resolveTargets(catalog, 'qtSd/fam/claude-opus-4-1', 'anthropic');
    if (r.kind !== 'targets') throw new Error('unresolved');
    expect(r.targets.map((t) => t.upstreamModel)).toEqual(['claude-opus-4-1', 'claude-opus-4-1']);
  });

  it('ROUTE-11: DRR weights follow the accounts’ plans for the pool’s first dimension, else the pool’s limit', () => {
    const index = buildPoolIndex([pool('fam', ['id-a1', 'id-a2'])]);
    const plans = new Map([['id-a1', [{ unit: 'requests' as const, window: 'hourly' as const, limit: 300 }]]]);
    const [fam] = systemCombosOf(index.pools, plans);
    expect([...(fam?.weights ?? [])]).toEqual([
      ['id-a1', 300],
      ['id-a2', 100],
    ]);
  });
});
