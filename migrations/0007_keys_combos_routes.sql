-- Issue 9: local keys gain scopes and allowed connections (LEASE-3), combos a strategy (§2), and
-- model routes get a table of their own (§5). Forward-only. JSON columns hold arrays the
-- repositories validate on read; an empty allowed list means "every connection".

ALTER TABLE local_keys ADD COLUMN scopes_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE local_keys ADD COLUMN allowed_connections_json TEXT NOT NULL DEFAULT '[]';

ALTER TABLE combos ADD COLUMN strategy TEXT NOT NULL DEFAULT 'priority'
  CHECK (strategy IN ('priority', 'round-robin'));

-- The ordered route list; replaced as a whole (routes.replace, config), so position is dense from 0.
CREATE TABLE IF NOT EXISTS routes (
  position  INTEGER PRIMARY KEY CHECK (position >= 0),
  match     TEXT    NOT NULL CHECK (length(match) BETWEEN 1 AND 200),
  to_target TEXT    NOT NULL CHECK (length(to_target) BETWEEN 1 AND 200)
) STRICT;
