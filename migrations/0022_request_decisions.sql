-- Issue 24 §1: each request's decision record (every candidate in order: why it was skipped or how
-- its attempt ended), as JSON beside its activity row, at most 32 entries (DECISION_MAX_ENTRIES).
-- A side table so the activity list never reads it; pruning the activity row prunes its decision.
-- No CHECKs: a value the writer did not foresee must not fail the whole batched flush. Forward-only.
CREATE TABLE request_decisions (
  request_id INTEGER PRIMARY KEY,
  decision_json TEXT NOT NULL
);
CREATE TRIGGER request_decisions_pruned AFTER DELETE ON request_log
BEGIN
  DELETE FROM request_decisions WHERE request_id = OLD.id;
END;
