-- Issue 13 §5: models an upstream lists itself (its own /v1/models), for connections that serve any
-- model. Kept so a restart lists them before the first refresh. One row per connection; the list
-- is replaced whole on each successful refresh, and a failed one only records its error. `base_url`
-- is the upstream the list came from: a connection pointed elsewhere ignores the row. Forward-only.
CREATE TABLE IF NOT EXISTS discovered_models (
  connection_id TEXT    PRIMARY KEY REFERENCES connections(id) ON DELETE CASCADE,
  base_url      TEXT    NOT NULL,
  -- [{ "id": "…", "displayName": "…" | null, "createdAt": ms | null }, …] in the upstream's order.
  models_json   TEXT    NOT NULL DEFAULT '[]',
  fetched_at    INTEGER NULL,
  attempted_at  INTEGER NOT NULL,
  last_error    TEXT    NULL
) STRICT;
