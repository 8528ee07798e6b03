import {
  quotaPlanInputSchema,
  quotaPoolInputSchema,
  type QuotaDimension,
  type QuotaPoolSpec,
} from '../../src-shared/domain/quota';
import { issuesAt, type ConfigProblem } from './config-access';

/** A manual plan override from the file (QPLAN-1), by connection name. */
export interface ConfigPlan {
  connection: string;
  dimensions: QuotaDimension[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const trimmed = (v: unknown): string | null => (typeof v === 'string' ? v.trim() : null);

/**
 * Where each connection name of a pool was written, so a problem points at the field the person
 * typed (`connection` or `connections.N`), not at the merged list the schema makes of them.
 */
function connectionFields(entry: unknown): Array<{ path: string; name: string }> {
  if (!isRecord(entry)) return [];
  const fields: Array<{ path: string; name: string }> = [];
  const single = trimmed(entry.connection);
  if (single !== null) fields.push({ path: 'connection', name: single });
  if (Array.isArray(entry.connections)) {
    entry.connections.forEach((value, i) => {
      const name = trimmed(value);
      if (name !== null) fields.push({ path: `connections.${i}`, name });
    });
  }
  return fields;
}

/** The file's pools (issue 10 §5): the shared schema, then keys and connections by name, each problem with its path. */
export function checkPools(
  entries: readonly unknown[],
  known: { connections: ReadonlySet<string>; keys: ReadonlySet<string> },
  problems: ConfigProblem[],
): QuotaPoolSpec[] {
  const pools: QuotaPoolSpec[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const at = `pools.${index}`;
    // Judged on the written name, so a repeat is reported even when the first entry has other problems.
    const name = isRecord(entry) ? trimmed(entry.name) : null;
    if (name !== null && seen.has(name))
      problems.push({ path: `${at}.name`, message: `duplicate pool name "${name}"` });
    if (name !== null) seen.add(name);
    const pool = quotaPoolInputSchema.safeParse(entry);
    if (!pool.success) return void problems.push(...issuesAt(at, pool.error));
    for (const field of connectionFields(entry)) {
      if (!known.connections.has(field.name))
        problems.push({ path: `${at}.${field.path}`, message: `no connection named "${field.name}"` });
    }
    pool.data.allocations.forEach((a, ai) => {
      if (!known.keys.has(a.key))
        problems.push({ path: `${at}.allocations.${ai}.key`, message: `no key named "${a.key}"` });
    });
    pools.push(pool.data);
  });
  return pools;
}

/** The file's plan overrides: one per connection, a known connection, at least one dimension. */
export function checkPlans(
  entries: readonly unknown[],
  connections: ReadonlySet<string>,
  problems: ConfigProblem[],
): ConfigPlan[] {
  const plans: ConfigPlan[] = [];
  entries.forEach((entry, index) => {
    const at = `plans.${index}`;
    const plan = quotaPlanInputSchema.safeParse(entry);
    if (!plan.success) return void problems.push(...issuesAt(at, plan.error));
    const { connection, dimensions } = plan.data;
    if (!connections.has(connection))
      problems.push({ path: `${at}.connection`, message: `no connection named "${connection}"` });
    if (plans.some((other) => other.connection === connection))
      problems.push({ path: `${at}.connection`, message: `a second plan for "${connection}"` });
    plans.push({ connection, dimensions });
  });
  return plans;
}
