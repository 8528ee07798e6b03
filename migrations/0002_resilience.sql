-- Resilience state that must survive a restart (ARCHITECTURE §3): each connection's cooldown
-- fields and terminal state (COOL-2, COOL-10), and each provider's circuit breaker (BRK-7).
-- Model lockouts and window-gate entries stay in memory by design (LOCK-13, PROV).

CREATE TABLE IF NOT EXISTS connection_health (
  connection_id      TEXT    PRIMARY KEY REFERENCES connections(id) ON DELETE CASCADE,
  rate_limited_until INTEGER NULL,
  test_status        TEXT    NOT NULL DEFAULT 'active'
                     CHECK (test_status IN ('active', 'unavailable', 'banned', 'expired', 'credits_exhausted')),
  last_error         TEXT    NULL,
  last_error_type    TEXT    NULL,
  error_code         TEXT    NULL,
  backoff_level      INTEGER NOT NULL DEFAULT 0 CHECK (backoff_level >= 0),
  -- Engine fields beyond COOL-2 (herd guard, streaks, expiry retries), as validated JSON.
  extra_json         TEXT    NOT NULL DEFAULT '{}',
  updated_at         INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS provider_breakers (
  provider   TEXT    PRIMARY KEY,
  state_json TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
