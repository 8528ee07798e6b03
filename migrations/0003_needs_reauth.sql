-- A Claude OAuth connection whose refresh token was refused needs a new sign-in: a terminal state
-- of its own (`needs_reauth`), so the UI can say exactly that. SQLite cannot alter a CHECK, so the
-- small table is rebuilt with its rows.

CREATE TABLE connection_health_new (
  connection_id      TEXT    PRIMARY KEY REFERENCES connections(id) ON DELETE CASCADE,
  rate_limited_until INTEGER NULL,
  test_status        TEXT    NOT NULL DEFAULT 'active'
                     CHECK (test_status IN ('active', 'unavailable', 'banned', 'expired', 'credits_exhausted', 'needs_reauth')),
  last_error         TEXT    NULL,
  last_error_type    TEXT    NULL,
  error_code         TEXT    NULL,
  backoff_level      INTEGER NOT NULL DEFAULT 0 CHECK (backoff_level >= 0),
  extra_json         TEXT    NOT NULL DEFAULT '{}',
  updated_at         INTEGER NOT NULL
) STRICT;

INSERT INTO connection_health_new SELECT * FROM connection_health;
DROP TABLE connection_health;
ALTER TABLE connection_health_new RENAME TO connection_health;
