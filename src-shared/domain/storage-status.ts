/**
 * Issue 21 §16: whether Leeway can write its data directory right now. Degraded storage does not
 * stop the proxy (routing state is in memory); it is shown on `/health`, in `app.info` and on the
 * dashboard's banner, and admin writes are refused with `storage_unavailable` until it recovers.
 */
export interface StorageStatus {
  ok: boolean;
  /** What fails, in words with its code ("the disk is full (SQLITE_FULL)"); null when ok. */
  error: string | null;
  /** SQLite's or the system's code (SQLITE_FULL, SQLITE_READONLY, ENOSPC …); null when ok. */
  code: string | null;
  /** When writes began to fail (epoch ms); null when ok. */
  since: number | null;
  /** Activity rows kept in memory until the disk takes them again. */
  heldRows: number;
  /** Activity rows dropped since Leeway started because too many waited for a failing disk. */
  droppedRows: number;
}

export const STORAGE_OK: StorageStatus = {
  ok: true,
  error: null,
  code: null,
  since: null,
  heldRows: 0,
  droppedRows: 0,
};
