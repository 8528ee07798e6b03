import { useState } from 'react';
import { useStore } from 'zustand';
import { useApi } from '../../api/api-context';
import type { ActivityViewStore } from './activity-view-store';
import { saveTextFile } from './save-file';

/** "Export CSV": the rows of the filter shown, made by the core (both doors give the same file). */
export function ActivityExport({ store }: { store: ActivityViewStore }) {
  const api = useApi();
  const query = useStore(store, (s) => s.query);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const run = async (): Promise<void> => {
    setBusy(true);
    setMessage(null);
    const result = await api.call('activity.exportCsv', query);
    setBusy(false);
    if (!result.ok) return setMessage({ text: `Export failed: ${result.error.message}`, error: true });
    const { filename, csv, rows, truncated } = result.value;
    const saved = saveTextFile(filename, csv);
    const what = `${rows} request${rows === 1 ? '' : 's'}${truncated ? ' (the newest only: the export is capped)' : ''}`;
    setMessage({ text: saved ? `Exported ${what} to ${filename}` : `Made ${filename} with ${what}`, error: false });
  };

  return (
    <div className="activity-export">
      <button type="button" className="button small" disabled={busy} onClick={() => void run()}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {message && (
        <span role="status" className={message.error ? 'error-text small' : 'muted small'}>
          {message.text}
        </span>
      )}
    </div>
  );
}
