-- Issue 11 (ROUTE-1): combos may use any of the 19 public strategies. SQLite cannot alter a CHECK,
-- so the table is rebuilt with the new list and its rows copied as they are (ids, names, targets,
-- times). Nothing references combos by foreign key. `quota-share` stays out (ROUTE-10): the
-- pools' system combos are built in memory, never stored here. Forward-only; runs inside migrate's
-- transaction.

CREATE TABLE combos_0010 (
  id           TEXT    PRIMARY KEY,
  name         TEXT    NOT NULL UNIQUE,
  targets_json TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  strategy     TEXT    NOT NULL DEFAULT 'priority' CHECK (strategy IN (
    'priority', 'weighted', 'round-robin', 'context-relay', 'fill-first', 'p2c', 'random',
    'least-used', 'cost-optimized', 'reset-aware', 'reset-window', 'leeway', 'strict-random',
    'auto', 'lkgp', 'context-optimized', 'cache-optimized', 'fusion', 'pipeline'))
) STRICT;

INSERT INTO combos_0010 (id, name, targets_json, created_at, updated_at, strategy)
  SELECT id, name, targets_json, created_at, updated_at, strategy FROM combos;

DROP TABLE combos;
ALTER TABLE combos_0010 RENAME TO combos;
