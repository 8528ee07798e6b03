import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { SectionHeader } from '../../components/section-header';
import { useStores } from '../../stores/stores-context';
import { CreatePoolModal } from './create-pool-modal';
import { migrateLegacyPools, type MigrationOutcome } from './legacy-migration';
import { PlansSection } from './plans-section';
import { PoolCard } from './pool-card';
import { QuotaConceptCard } from './quota-concept-card';
import { usePools } from './use-pools';
import './quota.css';

function migrationText(outcome: MigrationOutcome): string | null {
  if (outcome.kind !== 'migrated') return null;
  const parts = [
    outcome.imported.length > 0
      ? `Imported ${outcome.imported.length} pool(s) saved in this browser: ${outcome.imported.join(', ')}.`
      : null,
    ...outcome.refused.map((r) => `Could not import ${r.name}: ${r.message}`),
  ];
  return parts.filter((p) => p !== null).join(' ');
}

/** QUI-1: the Quota tab — the concept card, one card per pool (or how to make the first), and the plans. */
export function QuotaTab({ refreshMs }: { refreshMs?: number }) {
  const api = useApi();
  const { quota } = useStores();
  const [creating, setCreating] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [migrated, setMigrated] = useState<string | null>(null);
  const state = usePools(refreshMs, async () => {
    let storage: Storage;
    try {
      storage = window.localStorage;
    } catch {
      return;
    }
    const outcome = await migrateLegacyPools({
      storage,
      listPools: () => api.call('quota.listPools'),
      upsertPool: (input) => api.call('quota.upsertPool', input),
    });
    if (outcome.kind === 'migrated') {
      setMigrated(migrationText(outcome));
      await quota.getState().load();
    }
  });

  const remove = async (name: string): Promise<void> => {
    const result = await state.remove(name);
    setActionError(result.ok ? null : `Could not delete ${name}: ${result.error.message}`);
  };

  return (
    <section aria-labelledby="quota-title">
      <SectionHeader id="quota-title" title="Quota">
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          Create pool
        </button>
      </SectionHeader>
      <QuotaConceptCard />
      {migrated && (
        <p className="notice" role="status">
          {migrated}
        </p>
      )}
      {actionError && (
        <p className="notice error" role="alert">
          {actionError}
        </p>
      )}
      <LoadGate state={state} onRetry={() => void state.load()}>
        {state.items.length === 0 ? (
          <EmptyState title="No pools yet">
            <p>
              A pool shares one account’s quota among several keys, so one agent’s burst cannot lock the others out
              until the window resets.
            </p>
            <button type="button" className="button" onClick={() => setCreating(true)}>
              Create the first pool
            </button>
          </EmptyState>
        ) : (
          <div className="quota-pools">
            {state.items.map((pool, i) => (
              <PoolCard key={pool.id} pool={pool} initiallyOpen={i === 0} onRemove={(name) => void remove(name)} />
            ))}
          </div>
        )}
      </LoadGate>
      <PlansSection />
      {creating && <CreatePoolModal onClose={() => setCreating(false)} />}
    </section>
  );
}
