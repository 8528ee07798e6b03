-- The activity log marks requests a Claude subscription served after a provider hook: in the
-- low-priority lane or after a limit reset (issue 5, visibility).
ALTER TABLE request_log ADD COLUMN served_via TEXT NULL;
