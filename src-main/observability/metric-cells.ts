import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Per-request metrics without per-request work in prom-client: its `labels()` children re-hash
 * their labels into a new string on every `inc`/`observe`. Here each label combination owns a
 * cell of plain numbers, found once through the caller's map; a request adds to numbers, and
 * the cells are handed to prom-client only when a scrape asks.
 */
export interface CounterCell {
  value: number;
}

interface Row<L extends string, C> {
  labels: Record<L, string>;
  cell: C;
}

interface FamilyConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
}

/** A counter family; the returned function makes the cell of one label combination (call it once per combination). */
export function counterCells<L extends string>(
  registry: Registry,
  config: FamilyConfig<L>,
): (labels: Record<L, string>) => CounterCell {
  const rows: Row<L, CounterCell>[] = [];
  new Counter<L>({
    ...config,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of rows) if (row.cell.value > 0) this.inc(row.labels, row.cell.value);
    },
  });
  return (labels) => {
    const cell = { value: 0 };
    rows.push({ labels, cell });
    return cell;
  };
}

/** One label combination of a histogram: a count per bucket (not cumulative), the sum and the count. */
export class HistogramCell {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    this.sum += value;
    this.count++;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] ?? Infinity)) {
        this.counts[i] = (this.counts[i] ?? 0) + 1;
        return;
      }
    }
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** A prom-client Histogram whose exposition is built from cells (`getForPromString` is what the Registry reads). */
class CellHistogram<L extends string> extends Histogram<L> {
  constructor(
    private readonly family: FamilyConfig<L> & { buckets: readonly number[] },
    private readonly rows: readonly Row<L, HistogramCell>[],
    registry: Registry,
  ) {
    super({ ...family, buckets: [...family.buckets], registers: [registry] });
  }

  getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: ExportedValue[];
  }> {
    const { name, help, buckets } = this.family;
    const values: ExportedValue[] = [];
    for (const { labels, cell } of this.rows) {
      let cumulative = 0;
      buckets.forEach((le, i) => {
        cumulative += cell.counts[i] ?? 0;
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: cell.count, metricName: `${name}_bucket` });
      values.push({ labels, value: cell.sum, metricName: `${name}_sum` });
      values.push({ labels, value: cell.count, metricName: `${name}_count` });
    }
    return Promise.resolve({ name, help, type: 'histogram', aggregator: 'sum', values });
  }
}

/** A histogram family; as with counters, the returned function makes one combination's cell. */
export function histogramCells<L extends string>(
  registry: Registry,
  config: FamilyConfig<L> & { buckets: readonly number[] },
): (labels: Record<L, string>) => HistogramCell {
  const rows: Row<L, HistogramCell>[] = [];
  new CellHistogram(config, rows, registry);
  return (labels) => {
    const cell = new HistogramCell(config.buckets);
    rows.push({ labels, cell });
    return cell;
  };
}
