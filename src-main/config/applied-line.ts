import type { AppliedConfig } from './apply-config';

const KINDS = [
  ['connections', 'connection'],
  ['keys', 'key'],
  ['combos', 'combo'],
  ['pools', 'pool'],
  ['plans', 'plan'],
] as const;

function count(n: number, singular: string): string {
  return `${n} ${n === 1 ? singular : `${singular}s`}`;
}

/**
 * The one line `--config` prints at start (issue 13 §8), e.g.
 * `config: 3 connections, 1 key, 2 combos upserted (4 unchanged) from ./leeway.json`.
 * Names and secrets never appear: only counts and the file's path.
 */
export function describeAppliedConfig(applied: AppliedConfig, file: string): string {
  const parts = KINDS.filter(([field]) => applied[field] > 0).map(([field, singular]) =>
    count(applied[field], singular),
  );
  const total = KINDS.reduce((sum, [field]) => sum + applied[field], 0);
  let line = parts.length > 0 ? `${parts.join(', ')} upserted` : 'nothing upserted';
  if (total > 0 && applied.unchanged === total) line += ' (all unchanged)';
  else if (applied.unchanged > 0) line += ` (${applied.unchanged} unchanged)`;
  if (applied.routes !== null) line += `, routes replaced (${count(applied.routes, 'route')})`;
  return `config: ${line} from ${file}`;
}
