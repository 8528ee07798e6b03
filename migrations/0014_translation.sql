-- Issue 12 §4: Anthropic⇄OpenAI translation. Per connection, whether requests of the other wire
-- format may be translated onto it (default yes), and whether an OpenAI-format connection serves
-- the Responses API (POST /responses, codex) itself: NULL decides by kind (only `openai` does),
-- 1 native, 0 translate. Forward-only.
ALTER TABLE connections ADD COLUMN accept_translated INTEGER NOT NULL DEFAULT 1 CHECK (accept_translated IN (0, 1));
ALTER TABLE connections ADD COLUMN responses_api INTEGER NULL CHECK (responses_api IS NULL OR responses_api IN (0, 1));

-- The activity row says when a request was translated: `client->upstream` wire formats, e.g.
-- `anthropic->openai` or `responses->anthropic`. NULL: served in the client's own format. No CHECK:
-- a value the writer did not foresee must not fail the whole batched flush.
ALTER TABLE request_log ADD COLUMN translated TEXT NULL;
