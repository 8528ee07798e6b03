-- Issue 13 §1: how long a request waited in a connection's request queue (QUEUE-1) for a
-- maxConcurrent slot before it was sent; NULL when it never waited. Forward-only.
ALTER TABLE request_log ADD COLUMN queued_ms INTEGER NULL CHECK (queued_ms IS NULL OR queued_ms >= 0);
