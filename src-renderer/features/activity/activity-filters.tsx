import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useResource } from '../../resources/resource-context';
import { CONNECTIONS } from '../../resources/shared-data';
import {
  fromLocalInput,
  isFiltered,
  NO_FILTER,
  RANGE_PRESETS,
  rangeId,
  toLocalInput,
  type ActivityViewFilter,
} from './activity-range';
import type { ActivityViewStore } from './activity-view-store';

/** How long typing pauses before the search runs (Enter runs it at once). */
export const SEARCH_DEBOUNCE_MS = 300;

/** Adds what is seen now to what was seen before, so an option never vanishes when a filter hides its rows. */
function remember(seen: Set<string>, values: Iterable<string | null | undefined>): string[] {
  for (const v of values) if (v) seen.add(v);
  return [...seen].sort((a, b) => a.localeCompare(b));
}

/**
 * Narrows the request log by connection, model, outcome, time range and free text (model,
 * connection, key, status, error code); the core filters, so older pages match too.
 */
export function ActivityFilters({ store }: { store: ActivityViewStore }) {
  const filter = useStore(store, (s) => s.filter);
  const entries = useStore(store, (s) => s.entries);
  const setFilter = useStore(store, (s) => s.setFilter);
  const known = useResource(CONNECTIONS).data ?? [];
  const [search, setSearch] = useState(filter.search ?? '');

  const seenConnections = useRef(new Set<string>()).current;
  const seenModels = useRef(new Set<string>()).current;
  const connectionNames = remember(seenConnections, [...known.map((c) => c.name), ...entries.map((e) => e.connection)]);
  const models = remember(seenModels, [...known.flatMap((c) => c.models), ...entries.map((e) => e.model)]);
  const update = (patch: Partial<ActivityViewFilter>): void => void setFilter({ ...filter, ...patch });

  // The filter's own value wins when it changes elsewhere (Clear filters); a trailing space typed stays.
  const applied = filter.search ?? '';
  useEffect(() => setSearch((typed) => (typed.trim() === applied ? typed : applied)), [applied]);
  // The search runs once typing pauses.
  useEffect(() => {
    const wanted = search.trim();
    if (wanted === applied) return;
    const timer = setTimeout(() => void setFilter({ ...filter, search: wanted || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, applied, filter, setFilter]);

  const range = filter.range;
  const onRange = (id: string): void => {
    if (id === 'custom') return update({ range: { kind: 'custom', since: null, until: null } });
    update({ range: RANGE_PRESETS.find((p) => p.id === id)?.range ?? NO_FILTER.range });
  };

  return (
    <div className="filter-bar activity-filters" role="group" aria-label="Filter requests">
      <label>
        <span>Search</span>
        <input
          type="search"
          value={search}
          placeholder="model, key, status, error…"
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') update({ search: search.trim() || undefined });
          }}
        />
      </label>
      <label>
        <span>Time range</span>
        <select value={rangeId(range)} onChange={(e) => onRange(e.target.value)}>
          {RANGE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
      </label>
      {range.kind === 'custom' && (
        <>
          <label>
            <span>From</span>
            <input
              type="datetime-local"
              value={toLocalInput(range.since)}
              onChange={(e) => update({ range: { ...range, since: fromLocalInput(e.target.value) } })}
            />
          </label>
          <label>
            <span>To</span>
            <input
              type="datetime-local"
              value={toLocalInput(range.until)}
              onChange={(e) => update({ range: { ...range, until: fromLocalInput(e.target.value) } })}
            />
          </label>
        </>
      )}
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
      {isFiltered(filter) && (
        <button type="button" className="button small" onClick={() => void setFilter(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </div>
  );
}
