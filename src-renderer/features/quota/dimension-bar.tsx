import type { QuotaDimensionUsage } from '../../../src-shared/domain/quota';
import { dimensionLabel, formatAmount, formatPercent, keyColour } from './quota-format';

const pct = (part: number, whole: number): number => (whole > 0 ? Math.max(0, Math.min(100, (part / whole) * 100)) : 0);

/**
 * QUI-5: one dimension as a stacked bar — each key's consumption in its colour against the pool
 * limit, a mark where each key's fair share ends and one at the saturation threshold — with the
 * mode and the global use (and whether the provider reported it).
 */
export function DimensionBar({ dimension, threshold }: { dimension: QuotaDimensionUsage; threshold: number }) {
  const { limit, keys } = dimension;
  const scale = Math.max(limit, dimension.consumedTotal);
  let shareEnd = 0;
  const marks = keys.map((k) => (shareEnd += k.fairShare));
  const summary = `${formatAmount(dimension.consumedTotal, dimension.unit)} of ${
    limit > 0 ? formatAmount(limit, dimension.unit) : 'an unknown limit'
  } used (${formatPercent(dimension.globalUsedPercent)})`;

  return (
    <div className="quota-dimension">
      <div className="quota-dimension-head">
        <strong>{dimensionLabel(dimension)}</strong>
        <span className={dimension.mode === 'strict' ? 'badge warn' : 'badge ok'}>{dimension.mode}</span>
        <span className="small">
          {summary}
          {dimension.saturationSource === 'provider' ? ' · reported by the provider' : ' · counted by Leeway'}
        </span>
      </div>
      <div className="quota-bar" role="img" aria-label={`${dimensionLabel(dimension)}: ${summary}, ${dimension.mode}`}>
        {keys.map((k, i) => (
          <span
            key={k.keyId}
            className="quota-bar-segment"
            data-key={k.key}
            style={{ width: `${pct(k.consumed, scale)}%`, background: keyColour(i) }}
            title={`${k.key}: ${formatAmount(k.consumed, dimension.unit)}`}
          />
        ))}
        {limit > 0 &&
          marks
            .slice(0, -1)
            .map((end, i) => (
              <span key={`share-${i}`} className="quota-bar-mark" style={{ left: `${pct(end, scale)}%` }} aria-hidden />
            ))}
        {limit > 0 && (
          <span
            className="quota-bar-threshold"
            style={{ left: `${pct(limit * threshold, scale)}%` }}
            title={`Saturation threshold ${formatPercent(threshold)}`}
            aria-hidden
          />
        )}
      </div>
      <ul className="quota-legend">
        {keys.map((k, i) => (
          <li key={k.keyId}>
            <span className="quota-swatch" style={{ background: keyColour(i) }} aria-hidden />
            {k.key}: {formatAmount(k.consumed, dimension.unit)} of {formatAmount(k.fairShare, dimension.unit)} share
          </li>
        ))}
      </ul>
    </div>
  );
}
