import { useEffect, useState } from 'react';
import { onEventType } from '../../api/api-client';
import { useApi } from '../../api/api-context';

/**
 * A loud line across the top once the core reports its data directory gone: nothing is saved from
 * then on, and only a restart (with the folder back) fixes it, so the banner stays until the page reloads.
 */
export function StorageBanner() {
  const api = useApi();
  const [lost, setLost] = useState<{ dataDir: string; message: string } | null>(null);
  useEffect(() => onEventType(api, 'storage.lost', setLost), [api]);
  if (!lost) return null;
  return (
    // A full row of the wrapping header, so it cannot be missed beside the proxy URL.
    <div className="notice error storage-lost" role="alert" style={{ flexBasis: '100%', margin: 0 }}>
      <strong>Leeway lost its data directory.</strong> {lost.message}
    </div>
  );
}
