import { useRef } from 'react';
import { useStore } from 'zustand';
import type { ActivityFilter } from '../../stores/activity-store';
import { useStores } from '../../stores/stores-context';

/** Adds what is seen now to what was seen before, so an option never vanishes when a filter hides its rows. */
function remember(seen: Set<string>, values: Iterable<string | null | undefined>): string[] {
  for (const v of values) if (v) seen.add(v);
  return [...seen].sort((a, b) => a.localeCompare(b));
}

/** Narrows the request log by connection, model and outcome; the core filters, so older pages match too. */
export function ActivityFilters() {
  const { activity, connections } = useStores();
  const filter = useStore(activity, (s) => s.filter);
  const entries = useStore(activity, (s) => s.entries);
  const setFilter = useStore(activity, (s) => s.setFilter);
  const known = useStore(connections, (s) => s.items);

  const seenConnections = useRef(new Set<string>()).current;
  const seenModels = useRef(new Set<string>()).current;
  const connectionNames = remember(seenConnections, [...known.map((c) => c.name), ...entries.map((e) => e.connection)]);
  const models = remember(seenModels, [...known.flatMap((c) => c.models), ...entries.map((e) => e.model)]);
  const update = (patch: Partial<ActivityFilter>): void => void setFilter({ ...filter, ...patch });
  const active = filter.connection !== undefined || filter.model !== undefined || filter.status !== undefined;

  return (
    <div className="filter-bar" role="group" aria-label="Filter requests">
      <label>
        <span>Connection</span>
        <select value={filter.connection ?? ''} onChange={(e) => update({ connection: e.target.value || undefined })}>
          <option value="">All connections</option>
          {connectionNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Model</span>
        <select value={filter.model ?? ''} onChange={(e) => update({ model: e.target.value || undefined })}>
          <option value="">All models</option>
          {models.map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Status</span>
        <select
          value={filter.status ?? ''}
          onChange={(e) =>
            update({ status: e.target.value === 'ok' || e.target.value === 'error' ? e.target.value : undefined })
          }
        >
          <option value="">Any status</option>
          <option value="ok">Succeeded</option>
          <option value="error">Failed</option>
        </select>
      </label>
      {active && (
        <button type="button" className="button small" onClick={() => void setFilter({})}>
          Clear filters
        </button>
      )}
    </div>
  );
}
