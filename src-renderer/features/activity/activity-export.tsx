import { useState } from 'react';
import { useStore } from 'zustand';
import { useAction } from '../../resources/action';
import type { ActivityViewStore } from './activity-view-store';
import { saveTextFile } from './save-file';

/** "Export CSV": the rows of the filter shown, made by the core (both doors give the same file). */
export function ActivityExport({ store }: { store: ActivityViewStore }) {
  const exportCsv = useAction('activity.exportCsv');
  const query = useStore(store, (s) => s.query);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const run = async (): Promise<void> => {
    setMessage(null);
    const result = await exportCsv.run(query);
    if (!result.ok) return setMessage({ text: `Export failed: ${result.error.message}`, error: true });
    const { filename, csv, rows, truncated } = result.value;
    const saved = saveTextFile(filename, csv);
    const what = `${rows} request${rows === 1 ? '' : 's'}${truncated ? ' (the newest only: the export is capped)' : ''}`;
    setMessage({ text: saved ? `Exported ${what} to ${filename}` : `Made ${filename} with ${what}`, error: false });
  };

  return (
    <div className="activity-export">
      <button type="button" className="button small" disabled={exportCsv.pending} onClick={() => void run()}>
        {exportCsv.pending ? 'Exporting…' : 'Export CSV'}
      </button>
      {message && (
        <span role="status" className={message.error ? 'error-text small' : 'muted small'}>
          {message.text}
        </span>
      )}
    </div>
  );
}
