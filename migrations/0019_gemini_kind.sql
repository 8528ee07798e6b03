-- Issue 23 §1: the `gemini` connection kind and the `gemini` client format. SQLite cannot widen a
-- CHECK in place (and defensive mode forbids editing the schema text), so both tables are rebuilt
-- with their current columns. Dropping `connections` cascades to the tables that reference it, so
-- their rows are kept aside first and put back once the new table has the old name. Forward-only.

CREATE TEMP TABLE keep_connection_health AS SELECT * FROM connection_health;
CREATE TEMP TABLE keep_session_account_affinity AS SELECT * FROM session_account_affinity;
CREATE TEMP TABLE keep_session_leases AS SELECT * FROM session_leases;
CREATE TEMP TABLE keep_quota_pool_connections AS SELECT * FROM quota_pool_connections;
CREATE TEMP TABLE keep_provider_plans AS SELECT * FROM provider_plans;
CREATE TEMP TABLE keep_discovered_models AS SELECT * FROM discovered_models;

CREATE TABLE connections_new (
  id                     TEXT    PRIMARY KEY,
  name                   TEXT    NOT NULL UNIQUE,
  kind                   TEXT    NOT NULL CHECK (kind IN ('anthropic', 'claude-oauth', 'openai', 'openai-compatible', 'gemini')),
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
  updated_at             INTEGER NOT NULL,
  rate_limit_overrides_json TEXT NOT NULL DEFAULT '{}',
  outbound_proxy_url     TEXT    NULL,
  egress_ip              TEXT    NULL CHECK (egress_ip IS NULL OR length(egress_ip) BETWEEN 1 AND 64),
  egress_ip_at           INTEGER NULL,
  accept_translated      INTEGER NOT NULL DEFAULT 1 CHECK (accept_translated IN (0, 1)),
  responses_api          INTEGER NULL CHECK (responses_api IS NULL OR responses_api IN (0, 1))
) STRICT;
INSERT INTO connections_new (id, name, kind, base_url, secret_sealed, secret_hint, models_json, model_aliases_json,
  priority, enabled, max_concurrent, disable_cooling, provider_specific_json, created_at, updated_at,
  rate_limit_overrides_json, outbound_proxy_url, egress_ip, egress_ip_at, accept_translated, responses_api)
SELECT id, name, kind, base_url, secret_sealed, secret_hint, models_json, model_aliases_json,
  priority, enabled, max_concurrent, disable_cooling, provider_specific_json, created_at, updated_at,
  rate_limit_overrides_json, outbound_proxy_url, egress_ip, egress_ip_at, accept_translated, responses_api
FROM connections;

DROP TRIGGER IF EXISTS request_log_egress_ip;
DROP TABLE connections;
ALTER TABLE connections_new RENAME TO connections;

INSERT INTO connection_health SELECT * FROM keep_connection_health;
INSERT INTO session_account_affinity SELECT * FROM keep_session_account_affinity;
INSERT INTO session_leases SELECT * FROM keep_session_leases;
INSERT INTO quota_pool_connections SELECT * FROM keep_quota_pool_connections;
INSERT INTO provider_plans SELECT * FROM keep_provider_plans;
INSERT INTO discovered_models SELECT * FROM keep_discovered_models;
DROP TABLE keep_connection_health;
DROP TABLE keep_session_account_affinity;
DROP TABLE keep_session_leases;
DROP TABLE keep_quota_pool_connections;
DROP TABLE keep_provider_plans;
DROP TABLE keep_discovered_models;

CREATE TABLE request_log_new (
  id                 INTEGER PRIMARY KEY,
  ts                 INTEGER NOT NULL,
  key_name           TEXT    NULL,
  api_format         TEXT    NULL CHECK (api_format IS NULL OR api_format IN ('anthropic', 'openai', 'gemini')),
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
  error_code         TEXT    NULL,
  served_via         TEXT    NULL,
  session_pin        TEXT    NULL CHECK (session_pin IN ('kept', 'moved', 'new')),
  held_ms            INTEGER NULL CHECK (held_ms IS NULL OR held_ms >= 0),
  egress_ip          TEXT    NULL,
  translated         TEXT    NULL,
  upstream_model     TEXT    NULL,
  attempts_json      TEXT    NULL,
  error_message      TEXT    NULL,
  queued_ms          INTEGER NULL CHECK (queued_ms IS NULL OR queued_ms >= 0)
) STRICT;
INSERT INTO request_log_new SELECT id, ts, key_name, api_format, endpoint, model, connection, status, stream,
  latency_ms, ttfb_ms, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, failover_json,
  error_code, served_via, session_pin, held_ms, egress_ip, translated, upstream_model, attempts_json,
  error_message, queued_ms
FROM request_log;
DROP TABLE request_log;
ALTER TABLE request_log_new RENAME TO request_log;
CREATE INDEX IF NOT EXISTS request_log_ts ON request_log (ts);

-- As 0018 left it.
CREATE TRIGGER request_log_egress_ip AFTER INSERT ON request_log
WHEN NEW.egress_ip IS NULL AND NEW.connection IS NOT NULL
  AND EXISTS (SELECT 1 FROM connections WHERE name = NEW.connection AND egress_ip IS NOT NULL)
BEGIN
  UPDATE request_log SET egress_ip = (SELECT egress_ip FROM connections WHERE name = NEW.connection)
  WHERE id = NEW.id;
END;
