import { useId, useState } from 'react';
import type { QuotaPoolView } from '../../../src-shared/domain/quota';
import { ConfirmButton } from '../../components/confirm-button';
import { ErrorNotice } from '../../components/error-notice';
import { AllocationTable } from './allocation-table';
import { BurnRateChart } from './burn-rate-chart';
import { DimensionBar } from './dimension-bar';
import { EditAllocationsModal } from './edit-allocations-modal';
import { dimensionLabel, SOURCE_LABELS } from './quota-format';
import { useResource } from '../../resources/resource-context';
import { poolUsage } from './quota-data';

/**
 * QUI-4: one pool — name, connections, how many keys share it and where its dimensions come from;
 * open, it reads its usage (QUI-10) and shows a bar, an allocation table and a burn-rate chart per dimension.
 */
export function PoolCard({
  pool,
  initiallyOpen,
  onRemove,
}: {
  pool: QuotaPoolView;
  initiallyOpen: boolean;
  onRemove: (name: string) => void;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const [editing, setEditing] = useState(false);
  const { data: usage, error } = useResource(open ? poolUsage(pool.id) : null);
  const bodyId = useId();
  const titleId = `pool-${pool.id}-title`;
  const weights = new Map(pool.allocations.map((a) => [a.key, a.weight]));

  return (
    <article className="quota-pool" aria-labelledby={titleId}>
      <header className="quota-pool-head">
        <h3 id={titleId}>{pool.name}</h3>
        <dl className="quota-facts">
          <div>
            <dt>Connections</dt>
            <dd>{pool.connections.join(', ')}</dd>
          </div>
          <div>
            <dt>Keys</dt>
            <dd>
              {pool.allocations.length} allocation{pool.allocations.length === 1 ? '' : 's'}
            </dd>
          </div>
          <div>
            <dt>Dimensions</dt>
            <dd>
              {pool.effectiveDimensions.length > 0 ? pool.effectiveDimensions.map(dimensionLabel).join(' · ') : 'none'}{' '}
              <span className="muted small">({SOURCE_LABELS[pool.dimensionsSource]})</span>
            </dd>
          </div>
        </dl>
        <div className="quota-pool-actions">
          <button
            type="button"
            className="button small"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide usage' : 'Show usage'}
          </button>
          <button type="button" className="button small" onClick={() => setEditing(true)}>
            Edit allocations
          </button>
          <ConfirmButton
            label="Delete pool"
            question={`Delete pool ${pool.name}? Its keys stop being limited by it.`}
            confirmLabel="Delete"
            onConfirm={() => onRemove(pool.name)}
          />
        </div>
      </header>
      {open && (
        <div id={bodyId} className="quota-pool-body">
          <ErrorNotice message={error && `Could not read the usage: ${error.message}`} />
          {usage === undefined ? (
            !error && <p className="muted">Loading usage…</p>
          ) : usage.dimensions.length === 0 ? (
            <p className="muted">
              Nothing to enforce: the pool has no dimensions and its connection no plan. Edit the plan below or recreate
              the pool with dimensions.
            </p>
          ) : (
            usage.dimensions.map((d) => (
              <section key={d.dimensionKey} className="quota-dimension-block" aria-label={dimensionLabel(d)}>
                <DimensionBar dimension={d} threshold={usage.saturationThreshold} />
                <AllocationTable dimension={d} weights={weights} />
                <BurnRateChart dimension={d} />
              </section>
            ))
          )}
        </div>
      )}
      {editing && <EditAllocationsModal pool={pool} onClose={() => setEditing(false)} />}
    </article>
  );
}
