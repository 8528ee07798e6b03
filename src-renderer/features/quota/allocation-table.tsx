import type { QuotaDimensionUsage, QuotaKeyUsage } from '../../../src-shared/domain/quota';
import { decisionLabel, dimensionLabel, formatAmount } from './quota-format';

const weightText = (k: QuotaKeyUsage, weight: number | undefined): string =>
  weight === undefined || weight === k.effectiveWeight
    ? `${+k.effectiveWeight.toFixed(1)} %`
    : `${weight} → ${+k.effectiveWeight.toFixed(1)} %`;

const decisionClass = (d: QuotaKeyUsage['decision']): string =>
  d === 'allow' ? 'badge ok' : d === 'penalize' ? 'badge warn' : 'badge err';

/**
 * QUI-6: per key on one dimension — policy, weight (and the effective one), consumption, fair share,
 * what is left or how far over, whether it is borrowing, and what its next request would meet.
 */
export function AllocationTable({
  dimension,
  weights,
}: {
  dimension: QuotaDimensionUsage;
  /** Configured weights by key name, to show where the effective weight differs (equal split). */
  weights: ReadonlyMap<string, number>;
}) {
  const { unit } = dimension;
  return (
    <div className="table-scroll">
      <table className="table quota-allocations">
        <caption className="small muted">Allocations — {dimensionLabel(dimension)}</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Policy</th>
            <th scope="col">Weight</th>
            <th scope="col" className="num">
              Consumed
            </th>
            <th scope="col" className="num">
              Fair share
            </th>
            <th scope="col" className="num">
              Left / over
            </th>
            <th scope="col">Borrowing</th>
            <th scope="col">Next request</th>
          </tr>
        </thead>
        <tbody>
          {dimension.keys.map((k) => (
            <tr key={k.keyId}>
              <th scope="row">{k.key}</th>
              <td>{k.policy}</td>
              <td>{weightText(k, weights.get(k.key))}</td>
              <td className="num">{formatAmount(k.consumed, unit)}</td>
              <td className="num">{formatAmount(k.fairShare, unit)}</td>
              <td className="num">
                {k.remaining >= 0
                  ? `${formatAmount(k.remaining, unit)} left`
                  : `${formatAmount(-k.remaining, unit)} over`}
              </td>
              <td>{k.borrowing ? <span className="badge warn">borrowing</span> : 'no'}</td>
              <td>
                <span className={decisionClass(k.decision)}>{decisionLabel(k.decision)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
