import { useState } from 'react';
import type { StorageStatus } from '../../../src-shared/domain/storage-status';
import { useCoreEvent } from '../../resources/use-core-event';
import { useResource } from '../../resources/resource-context';
import { APP_INFO } from '../../resources/shared-data';
import { formatTime } from '../activity/format-activity';

/** The sentence under the degraded banner: since when, what still works, what waits, what was lost. */
function degradedDetail(storage: StorageStatus): string {
  const since = storage.since === null ? '' : ` since ${formatTime(storage.since)}`;
  const held = storage.heldRows === 1 ? '1 activity row waits' : `${storage.heldRows} activity rows wait`;
  const dropped = storage.droppedRows > 0 ? ` ${storage.droppedRows} older rows were dropped.` : '';
  return `${storage.error ?? 'Writes fail'}${since}. Requests are still served; ${held} in memory and settings changes are refused until it takes writes again.${dropped}`;
}

/**
 * A loud line across the top while Leeway cannot save: the data directory is gone (`storage.lost`:
 * only a restart fixes it, so it stays until the page reloads), or writes fail (issue 21 §16,
 * `info.storage` kept current by `storage.changed`: it goes once the disk takes writes again, and
 * says — until dismissed — how many activity rows were dropped meanwhile, if any).
 */
export function StorageBanner() {
  const storage = useResource(APP_INFO).data?.storage ?? null;
  const [lost, setLost] = useState<{ dataDir: string; message: string } | null>(null);
  const [dismissedDrops, setDismissedDrops] = useState(0);
  useCoreEvent('storage.lost', setLost);
  // A full row of the wrapping header, so it cannot be missed beside the proxy URL.
  const row = { flexBasis: '100%', margin: 0 } as const;
  if (lost) {
    return (
      <div className="notice error storage-lost" role="alert" style={row}>
        <strong>Leeway lost its data directory.</strong> {lost.message}
      </div>
    );
  }
  if (storage && !storage.ok) {
    return (
      <div className="notice error storage-degraded" role="alert" style={row}>
        <strong>Leeway cannot save to its data directory:</strong> {degradedDetail(storage)}
      </div>
    );
  }
  if (storage && storage.droppedRows > dismissedDrops) {
    return (
      <div className="notice storage-recovered" role="status" style={row}>
        Storage takes writes again; {storage.droppedRows} activity rows were dropped while it failed.{' '}
        <button type="button" className="button small" onClick={() => setDismissedDrops(storage.droppedRows)}>
          Dismiss
        </button>
      </div>
    );
  }
  return null;
}
