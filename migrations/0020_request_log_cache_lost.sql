-- Issue 24 §3: the warm prompt cache a session threw away when it moved to the account that served
-- this request (input tokens), and what rebuilding it costs over reading it (USD, price table).
-- NULL when nothing was thrown away. Forward-only.
ALTER TABLE request_log ADD COLUMN cache_lost_tokens INTEGER NULL CHECK (cache_lost_tokens IS NULL OR cache_lost_tokens >= 0);
ALTER TABLE request_log ADD COLUMN cache_lost_usd REAL NULL CHECK (cache_lost_usd IS NULL OR cache_lost_usd >= 0);
