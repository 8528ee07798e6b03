-- Request-log ids reach the dashboard (activity.request) before their rows are written in batches,
-- so an id must never be handed out twice: not after a crash lost the buffered rows, not after
-- pruning lowered MAX(id). One row holds the highest id any request log may have handed out; the
-- log reserves ids in blocks ahead of use, inside its flush transaction (db/request-log-repo.ts).

CREATE TABLE IF NOT EXISTS request_log_seq (
  id               INTEGER PRIMARY KEY CHECK (id = 1),
  reserved_through INTEGER NOT NULL CHECK (reserved_through >= 0)
) STRICT;

INSERT OR IGNORE INTO request_log_seq (id, reserved_through)
  SELECT 1, COALESCE(MAX(id), 0) FROM request_log;
