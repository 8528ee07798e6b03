import { useEffect, useRef, useState } from 'react';
import { ok } from '../../../src-shared/contract/errors';
import type { QuotaPoolView } from '../../../src-shared/domain/quota';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { ListGate } from '../../components/list-gate';
import { SectionHeader } from '../../components/section-header';
import { runAction, useAction } from '../../resources/action';
import { useResource, useResourceCache } from '../../resources/resource-context';
import { CreatePoolModal } from './create-pool-modal';
import { migrateLegacyPools, type MigrationOutcome } from './legacy-migration';
import { PlansSection } from './plans-section';
import { PoolCard } from './pool-card';
import { QuotaConceptCard } from './quota-concept-card';
import { QUOTA_POOLS } from './quota-data';
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

/**
 * QUI-11: once the first pool list is in, sends the pools an earlier dashboard kept in this browser
 * (when the core has none); says what was imported.
 */
function useLegacyMigration(pools: readonly QuotaPoolView[] | undefined): string | null {
  const cache = useResourceCache();
  const [migrated, setMigrated] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (pools === undefined || started.current) return;
    started.current = true;
    let storage: Storage;
    try {
      storage = window.localStorage;
    } catch {
      return;
    }
    void migrateLegacyPools({
      storage,
      listPools: () => Promise.resolve(ok([...pools])),
      upsertPool: (input) => runAction(cache, 'quota.upsertPool', input),
    }).then((outcome) => setMigrated(migrationText(outcome)));
  }, [pools, cache]);
  return migrated;
}

/** QUI-1: the Quota tab — the concept card, one card per pool (or how to make the first), and the plans. */
export function QuotaTab() {
  const pools = useResource(QUOTA_POOLS);
  const remove = useAction('quota.removePool');
  const [creating, setCreating] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const migrated = useLegacyMigration(pools.data);

  const removePool = async (name: string): Promise<void> => {
    const result = await remove.run({ name });
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
      <ErrorNotice message={actionError} />
      <ListGate
        resource={pools}
        empty={
          <EmptyState title="No pools yet">
            <p>
              A pool shares one account’s quota among several keys, so one agent’s burst cannot lock the others out
              until the window resets.
            </p>
            <button type="button" className="button" onClick={() => setCreating(true)}>
              Create the first pool
            </button>
          </EmptyState>
        }
      >
        {(items) => (
          <div className="quota-pools">
            {items.map((pool, i) => (
              <PoolCard key={pool.id} pool={pool} initiallyOpen={i === 0} onRemove={(name) => void removePool(name)} />
            ))}
          </div>
        )}
      </ListGate>
      <PlansSection />
      {creating && <CreatePoolModal onClose={() => setCreating(false)} />}
    </section>
  );
}
