-- Leeway's first schema. Times are Unix milliseconds (INTEGER); booleans are 0/1 INTEGER;
-- JSON columns hold values the repositories validate on read. Forward-only: never edit a shipped
-- migration, add 0002_… instead. No BEGIN/COMMIT here: db/migrate wraps all pending files in one.
-- IF NOT EXISTS keeps each statement idempotent (QDB-5) on top of the user_version bookkeeping.

CREATE TABLE IF NOT EXISTS connections (
  id                     TEXT    PRIMARY KEY,
  name                   TEXT    NOT NULL UNIQUE,
  kind                   TEXT    NOT NULL CHECK (kind IN ('anthropic', 'claude-oauth', 'openai', 'openai-compatible')),
  base_url               TEXT    NULL,
  -- AES-GCM (or safeStorage) sealed JSON of the ConnectionSecret; never the plain secret.
  secret_sealed          TEXT    NULL,
  secret_hint            TEXT    NULL,
  models_json            TEXT    NOT NULL DEFAULT '[]',
  model_aliases_json     TEXT    NOT NULL DEFAULT '{}',
  priority               INTEGER NOT NULL DEFAULT 1 CHECK (priority >= 0),
  enabled                INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  max_concurrent         INTEGER NULL CHECK (max_concurrent IS NULL OR max_concurrent >= 1),
  disable_cooling        INTEGER NOT NULL DEFAULT 0 CHECK (disable_cooling IN (0, 1)),
  provider_specific_json TEXT    NOT NULL DEFAULT '{}',
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL
) STRICT;

-- Local API keys clients present to the proxy; only the SHA-256 hex of the key is kept.
CREATE TABLE IF NOT EXISTS local_keys (
  id           TEXT    PRIMARY KEY,
  name         TEXT    NOT NULL UNIQUE,
  key_hash     TEXT    NOT NULL UNIQUE CHECK (length(key_hash) = 64),
  prefix       TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER NULL,
  revoked_at   INTEGER NULL
) STRICT;

CREATE TABLE IF NOT EXISTS combos (
  id           TEXT    PRIMARY KEY,
  name         TEXT    NOT NULL UNIQUE,
  targets_json TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
) STRICT;

-- One row per settings field that differs from (or was once set over) the defaults.
CREATE TABLE IF NOT EXISTS settings (
  key        TEXT PRIMARY KEY,
  value_json TEXT NOT NULL
) STRICT;

-- The activity log: what a request did, never what it said (no bodies, no secrets).
CREATE TABLE IF NOT EXISTS request_log (
  id                 INTEGER PRIMARY KEY,
  ts                 INTEGER NOT NULL,
  key_name           TEXT    NULL,
  api_format         TEXT    NULL CHECK (api_format IS NULL OR api_format IN ('anthropic', 'openai')),
  endpoint           TEXT    NOT NULL,
  model              TEXT    NULL,
  connection         TEXT    NULL,
  status             INTEGER NOT NULL,
  stream             INTEGER NOT NULL CHECK (stream IN (0, 1)),
  latency_ms         INTEGER NOT NULL,
  ttfb_ms            INTEGER NULL,
  input_tokens       INTEGER NULL,
  output_tokens      INTEGER NULL,
  cache_read_tokens  INTEGER NULL,
  cache_write_tokens INTEGER NULL,
  failover_json      TEXT    NOT NULL DEFAULT '[]',
  error_code         TEXT    NULL
) STRICT;

CREATE INDEX IF NOT EXISTS request_log_ts ON request_log (ts);
