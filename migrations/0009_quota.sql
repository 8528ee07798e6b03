-- Issue 10: the quota sharing engine (QDB-1..5). Pools and allocations are metadata (SQLite always);
-- counters live in quota_consumption with the SQLite driver, in Redis with the Redis driver.
-- Idempotent (CREATE ... IF NOT EXISTS) as QDB-5 asks, forward-only like every migration here.

CREATE TABLE IF NOT EXISTS quota_pools (
  id                   TEXT    PRIMARY KEY,
  name                 TEXT    NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
  -- The pool's own dimensions (QFAIR-11) as a JSON array; '[]' = use the connection's plan.
  dimensions_json      TEXT    NOT NULL DEFAULT '[]',
  saturation_threshold REAL    NULL CHECK (saturation_threshold IS NULL OR saturation_threshold BETWEEN 0 AND 1),
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL
) STRICT;

-- Membership: one or more connections of one account family; position keeps the written order.
CREATE TABLE IF NOT EXISTS quota_pool_connections (
  pool_id       TEXT    NOT NULL REFERENCES quota_pools (id) ON DELETE CASCADE,
  connection_id TEXT    NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL CHECK (position >= 0),
  PRIMARY KEY (pool_id, connection_id)
) STRICT;
CREATE INDEX IF NOT EXISTS idx_qpc_connection ON quota_pool_connections (connection_id);

CREATE TABLE IF NOT EXISTS quota_allocations (
  pool_id    TEXT    NOT NULL REFERENCES quota_pools (id) ON DELETE CASCADE,
  api_key_id TEXT    NOT NULL REFERENCES local_keys (id) ON DELETE CASCADE,
  weight     REAL    NOT NULL DEFAULT 0 CHECK (weight BETWEEN 0 AND 100),
  policy     TEXT    NOT NULL DEFAULT 'hard' CHECK (policy IN ('hard', 'soft', 'burst')),
  cap_value  REAL    NULL CHECK (cap_value IS NULL OR cap_value > 0),
  cap_unit   TEXT    NULL CHECK (cap_unit IS NULL OR cap_unit IN ('percent', 'requests', 'tokens', 'usd')),
  position   INTEGER NOT NULL CHECK (position >= 0),
  PRIMARY KEY (pool_id, api_key_id)
) STRICT;
CREATE INDEX IF NOT EXISTS idx_qa_key ON quota_allocations (api_key_id);

-- Two-bucket sliding counters (QWIN-1): one row per (key, dimension, bucket index).
CREATE TABLE IF NOT EXISTS quota_consumption (
  api_key_id    TEXT    NOT NULL,
  dimension_key TEXT    NOT NULL,
  bucket_index  INTEGER NOT NULL,
  consumed      REAL    NOT NULL DEFAULT 0,
  updated_at    INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, dimension_key, bucket_index)
) STRICT;
CREATE INDEX IF NOT EXISTS idx_qc_dimension ON quota_consumption (dimension_key, bucket_index);
CREATE INDEX IF NOT EXISTS idx_qc_updated ON quota_consumption (updated_at);

-- Manual plan overrides (QDB-4): one row per connection, dimensions as JSON.
CREATE TABLE IF NOT EXISTS provider_plans (
  connection_id   TEXT    PRIMARY KEY REFERENCES connections (id) ON DELETE CASCADE,
  dimensions_json TEXT    NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT;
