/** Statistics and the printed tables of the benchmark. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  // Nearest rank: the smallest value with at least p % of the samples at or below it.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export type Column = 'direct' | 'floor' | 'leeway' | 'engines';

export interface Row {
  label: string;
  unit: string;
  direct?: number;
  floor?: number;
  leeway?: number;
  /** Leeway with every engine on. */
  engines?: number;
  /** Digits after the point for the values. */
  digits?: number;
}

function num(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value.toFixed(digits);
}

function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '—';
  return `${(a / b).toFixed(2)}×`;
}

function pad(text: string, width: number, left = false): string {
  return left ? text.padEnd(width) : text.padStart(width);
}

/** The main comparison: values for direct / floor / Leeway / Leeway with every engine on, and ratios. */
export function formatTable(rows: readonly Row[]): string {
  const header = ['metric', 'unit', 'direct', 'floor', 'leeway', 'engines', 'floor/direct', 'lw/floor', 'eng/floor'];
  const body = rows.map((row) => {
    const d = row.digits ?? 2;
    return [
      row.label,
      row.unit,
      num(row.direct, d),
      num(row.floor, d),
      num(row.leeway, d),
      num(row.engines, d),
      ratio(row.floor, row.direct),
      ratio(row.leeway, row.floor),
      ratio(row.engines, row.floor),
    ];
  });
  return formatGrid(header, body, 2);
}

/** A plain aligned grid; the first `leftColumns` columns are left-aligned. */
export function formatGrid(header: readonly string[], body: readonly (readonly string[])[], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => pad(cell, widths[i] ?? 0, i < leftColumns))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}

export interface Check {
  label: string;
  /** The measured value, as printed. */
  measured: string;
  /** The target, as printed. */
  target: string;
  pass: boolean;
  note?: string;
}

export function formatChecks(checks: readonly Check[]): string {
  const body = checks.map((c) => [c.pass ? 'PASS' : 'FAIL', c.label, c.measured, c.target, c.note ?? '']);
  return formatGrid(['', 'target', 'measured', 'limit', ''], body, 5);
}

export function mb(bytes: number): number {
  return bytes / (1024 * 1024);
}
