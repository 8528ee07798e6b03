-- The activity log says how long a request waited out short cooldowns before it was served or
-- refused (issue 11 §2, CONC-7). NULL: the request was never held. Forward-only.
ALTER TABLE request_log ADD COLUMN held_ms INTEGER NULL CHECK (held_ms IS NULL OR held_ms >= 0);
