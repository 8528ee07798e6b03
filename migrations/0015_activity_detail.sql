-- Issue 13 §3: activity that explains. Per request: the model id sent upstream on its last attempt
-- (a combo or alias resolved), every attempt as a JSON array (connection, status, reason, ms,
-- upstream model, the headers that explained a failure — values only, never credentials), and
-- Leeway's own message for a refusal it made itself (never the body, never a key). NULL: a row
-- from before this migration, or a request no upstream saw. No CHECKs: a value the writer did not
-- foresee must not fail the whole batched flush. Forward-only.
ALTER TABLE request_log ADD COLUMN upstream_model TEXT NULL;
ALTER TABLE request_log ADD COLUMN attempts_json TEXT NULL;
ALTER TABLE request_log ADD COLUMN error_message TEXT NULL;
