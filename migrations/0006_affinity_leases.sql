-- Session continuity (issue 9): affinity pins (AFF-4, QDB-7; the spec's `sessionAccountAffinity`,
-- snake_case here like every Leeway table) and exclusive leases (LEASE-2, QDB-8). Forward-only.
-- Rows go with their key or connection (ON DELETE CASCADE); the repositories also forget them in memory.

-- A pin: (local key, session, requested model/combo/route) -> connection until expires_at (AFF-7).
-- Written behind in batches by db/affinity-repo; memory is the source of truth while running.
CREATE TABLE IF NOT EXISTS session_account_affinity (
  key_id         TEXT    NOT NULL REFERENCES local_keys(id) ON DELETE CASCADE,
  session        TEXT    NOT NULL CHECK (length(session) BETWEEN 1 AND 256),
  target         TEXT    NOT NULL CHECK (length(target) >= 1),
  connection_id  TEXT    NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  created_at     INTEGER NOT NULL,
  last_served_at INTEGER NOT NULL,
  expires_at     INTEGER NOT NULL,
  PRIMARY KEY (key_id, session, target)
) STRICT;

CREATE INDEX IF NOT EXISTS session_account_affinity_expires ON session_account_affinity (expires_at);
CREATE INDEX IF NOT EXISTS session_account_affinity_connection ON session_account_affinity (connection_id);

-- Each owner's newest lease (one row per owner, so one active lease per owner by construction);
-- the owner id itself is never stored, only its SHA-256 hex (LEASE-7). Ended rows keep the
-- generation counting on and make a repeated release idempotent.
CREATE TABLE IF NOT EXISTS session_leases (
  owner_hash    TEXT    PRIMARY KEY CHECK (length(owner_hash) = 64),
  key_id        TEXT    NOT NULL REFERENCES local_keys(id) ON DELETE CASCADE,
  connection_id TEXT    NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  generation    INTEGER NOT NULL CHECK (generation >= 1),
  state         TEXT    NOT NULL CHECK (state IN ('active', 'ended')),
  acquired_at   INTEGER NOT NULL,
  renewed_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  ended_at      INTEGER NULL,
  end_reason    TEXT    NULL CHECK (end_reason IS NULL OR end_reason IN
                ('owner_exit', 'client_cancelled', 'ttl_expired', 'key_revoked', 'connection_removed', 'cleared')),
  CHECK ((state = 'active') = (ended_at IS NULL AND end_reason IS NULL))
) STRICT;

-- LEASE-2 in the schema too: at most one active lease per connection.
CREATE UNIQUE INDEX IF NOT EXISTS session_leases_active_connection ON session_leases (connection_id) WHERE state = 'active';
