import { describe, expect, it } from 'vitest';
import type { ComboStrategy, ComboView } from '../../../src-shared/domain/combo';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { buildCatalog } from '../build-catalog';
import { resolveTargets } from '../resolve-targets';
import { type Target } from '../../kernel/target';
import { seededRng } from './strategy-fixtures.testkit';
import { createStrategyStore } from './strategy-store';
import { NO_SIGNALS } from '../../kernel/upstream-signals';

/*
 * The strategy store remembers each plan while its targets are referenced. It must not keep the
 * request body with it: a held 70 KB body outlived young-generation collections and cost full
 * mark-compacts (the engines bench's Claude Code-shaped rounds). Needs a real full GC, so it runs
 * in the heap suite (`npm run test:heap`, `--expose-gc`) and skips itself without one.
 */
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : null;

function view(name: string): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind: 'anthropic',
    baseUrl: null,
    effectiveBaseUrl: 'https://api.anthropic.com',
    models: ['claude-haiku-4-5'],
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

function plan(strategy: ComboStrategy): { combo: ComboView; targets: Target[] } {
  const combo: ComboView = {
    id: 'k',
    name: 'main',
    targets: ['a', 'b'].map((connection) => ({ connection, model: null })),
    strategy,
    createdAt: 0,
    updatedAt: 0,
  };
  const catalog = buildCatalog(
    ['a', 'b'].map((n) => ({ view: view(n), secret: { type: 'api-key', apiKey: 'sk-test' } as const })),
    [combo],
    [],
  );
  const r = resolveTargets(catalog, 'main', 'anthropic');
  if (r.kind !== 'targets') throw new Error('combo did not resolve');
  return { combo, targets: r.targets };
}

describe.runIf(gc !== null)('the strategy store never keeps a request body alive (skipped without --expose-gc)', () => {
  for (const strategy of ['round-robin', 'p2c', 'cache-optimized'] as const)
    it(`issue 9 perf: a ${strategy} plan that was ordered, picked and served lets its body be collected while its targets live on`, async () => {
      const store = createStrategyStore(seededRng(1));
      const { combo, targets } = plan(strategy);
      // The body exists only inside this call, as a request's does inside its handler.
      const { collected, first } = ((): { collected: WeakRef<Buffer>; first: Target } => {
        const body = Buffer.alloc(70_000, 0x20);
        const ordered = store.order(combo, targets, { body, conversation: 's1', emergencyFallback: false }, 1);
        const head = ordered[0];
        if (!head) throw new Error('nothing ordered');
        store.picked(combo, head, targets);
        store.served(head, 5);
        return { collected: new WeakRef(body), first: head };
      })();
      // A WeakRef's target stays alive until the current job ends.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc?.();
      expect(collected.deref()).toBeUndefined();
      // The plan itself is still remembered (its targets are referenced): a later failure is learned.
      store.failed(first, { kind: 'response', status: 500, headers: {}, bodyText: 'boom', signals: NO_SIGNALS }, 3);
      expect(targets.length).toBe(2);
    });
});
