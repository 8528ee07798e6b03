-- Issue 11 (QUEUE-7, QDB-6): a connection's own request-queue budgets (maxWaitMs,
-- executionMaxWaitMs, maxQueueDepth) over the stored settings. A JSON object the repository
-- validates on read; '{}' means no override. Forward-only.

ALTER TABLE connections ADD COLUMN rate_limit_overrides_json TEXT NOT NULL DEFAULT '{}';
