import type { AppError } from '../../../src-shared/contract/errors';
import {
  quotaPoolInputSchema,
  type QuotaPolicy,
  type QuotaPoolInput,
  type QuotaPoolView,
  type QuotaUnit,
  type QuotaWindow,
} from '../../../src-shared/domain/quota';
import { inputIssuesOf } from '../../api/error-issues';

/** One dimension row as typed; `row` keeps React's identity across removals. */
export interface DimensionDraft {
  row: number;
  unit: QuotaUnit;
  window: QuotaWindow;
  limit: string;
}

export interface AllocationDraft {
  row: number;
  key: string;
  weight: string;
  policy: QuotaPolicy;
  capValue: string;
  /** '' = no cap. */
  capUnit: QuotaUnit | '';
}

/** The create dialog's state; the edit dialog uses the same with name, connections and dimensions fixed. */
export interface PoolForm {
  name: string;
  connections: string[];
  /** Leave the dimensions to the connection's plan (override, else catalog). */
  usePlan: boolean;
  dimensions: DimensionDraft[];
  allocations: AllocationDraft[];
}

/** Errors by field: `name`, `connections`, `dimensions`, `dimensions.0.limit`, `allocations.1.weight`, `form`. */
export type PoolErrors = Partial<Record<string, string>>;

let nextRow = 1;
export const newDimension = (patch: Partial<DimensionDraft> = {}): DimensionDraft => ({
  row: nextRow++,
  unit: 'requests',
  window: 'hourly',
  limit: '',
  ...patch,
});
export const newAllocation = (patch: Partial<AllocationDraft> = {}): AllocationDraft => ({
  row: nextRow++,
  key: '',
  weight: '',
  policy: 'hard',
  capValue: '',
  capUnit: '',
  ...patch,
});

export function emptyPoolForm(): PoolForm {
  return { name: '', connections: [], usePlan: false, dimensions: [newDimension()], allocations: [newAllocation()] };
}

/** The stored pool as a form, for editing its allocations. */
export function poolFormFrom(pool: QuotaPoolView): PoolForm {
  return {
    name: pool.name,
    connections: pool.connections,
    usePlan: pool.dimensions.length === 0,
    dimensions: pool.dimensions.map((d) => newDimension({ unit: d.unit, window: d.window, limit: String(d.limit) })),
    allocations: pool.allocations.map((a) =>
      newAllocation({
        key: a.key,
        weight: String(a.weight),
        policy: a.policy,
        capValue: a.capValue === null ? '' : String(a.capValue),
        capUnit: a.capUnit ?? '',
      }),
    ),
  };
}

/** Text to number; an empty optional field is its default, anything unparsable stays NaN so the schema says so. */
const numberOf = (text: string): number => Number(text.trim().replace(/[_\s,]/g, ''));

/** Maps a schema or core issue path onto the field that shows it; the one-connection shorthand is the connection list. */
function fieldOfPath(path: string): string {
  const parts = path.split('.');
  const [head, index, field] = parts;
  if (head === 'connection' || head === 'connections') return 'connections';
  if (head === 'name') return 'name';
  if ((head === 'dimensions' || head === 'allocations') && index !== undefined && /^\d+$/.test(index))
    return field === undefined ? `${head}.${index}` : `${head}.${index}.${field}`;
  if (head === 'dimensions' || head === 'allocations') return head;
  return 'form';
}

/** The first message per field wins: a field shows the most specific reason, not every rule it broke. */
function add(errors: PoolErrors, path: string, message: string): void {
  const field = fieldOfPath(path);
  const text = field === 'form' && path !== '' ? `${path}: ${message}` : message;
  if (field === 'form') errors.form = errors.form ? `${errors.form}; ${text}` : text;
  else errors[field] ??= text;
}

/** The upsert input, or messages per field from the contract's own schema (no copies of its ranges here). */
export function buildPoolInput(
  form: PoolForm,
): { ok: true; input: QuotaPoolInput } | { ok: false; errors: PoolErrors } {
  const input: QuotaPoolInput = {
    name: form.name,
    connections: form.connections,
    dimensions: form.usePlan
      ? []
      : form.dimensions.map((d) => ({
          unit: d.unit,
          window: d.window,
          limit: d.limit.trim() === '' ? NaN : numberOf(d.limit),
        })),
    allocations: form.allocations.map((a) => ({
      key: a.key,
      weight: a.weight.trim() === '' ? 0 : numberOf(a.weight),
      policy: a.policy,
      capValue: a.capValue.trim() === '' ? null : numberOf(a.capValue),
      capUnit: a.capUnit === '' ? null : a.capUnit,
    })),
  };
  const errors: PoolErrors = {};
  if (form.connections.length === 0) errors.connections = 'pick at least one connection';
  if (!form.usePlan && form.dimensions.length === 0)
    errors.dimensions = 'add a dimension, or use the connection’s plan';
  if (!form.usePlan)
    form.dimensions.forEach((d, i) => {
      if (d.limit.trim() === '') errors[`dimensions.${i}.limit`] = 'enter a limit (0 = unknown)';
    });
  const parsed = quotaPoolInputSchema.safeParse(input);
  if (!parsed.success) for (const issue of parsed.error.issues) add(errors, issue.path.join('.'), issue.message);
  return Object.keys(errors).length === 0 ? { ok: true, input } : { ok: false, errors };
}

/** The core's refusal placed at the fields it names (an unknown key at its row). */
export function poolErrorsFrom(error: AppError): PoolErrors {
  const errors: PoolErrors = {};
  for (const issue of inputIssuesOf(error)) add(errors, issue.path, issue.message);
  return Object.keys(errors).length > 0 ? errors : { form: error.message };
}
