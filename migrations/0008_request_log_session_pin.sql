-- The activity log says what a session pin did for a request (issue 9 §3): 'kept' (the pin chose
-- the connection), 'moved' (its connection could not serve; the pin moved to the one that did),
-- 'new' (the session's first request made the pin). NULL: no session key, or affinity off.
ALTER TABLE request_log ADD COLUMN session_pin TEXT NULL CHECK (session_pin IN ('kept', 'moved', 'new'));
