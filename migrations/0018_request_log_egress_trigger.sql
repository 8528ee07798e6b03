-- Issue 11 perf: the egress trigger of 0013 re-wrote every new activity row with an UPDATE, even
-- for a connection with no recorded egress IP (the usual case), a third of the row's insert cost.
-- Same result, the UPDATE only runs when there is an IP to copy. Forward-only.
DROP TRIGGER IF EXISTS request_log_egress_ip;
CREATE TRIGGER request_log_egress_ip AFTER INSERT ON request_log
WHEN NEW.egress_ip IS NULL AND NEW.connection IS NOT NULL
  AND EXISTS (SELECT 1 FROM connections WHERE name = NEW.connection AND egress_ip IS NOT NULL)
BEGIN
  UPDATE request_log SET egress_ip = (SELECT egress_ip FROM connections WHERE name = NEW.connection)
  WHERE id = NEW.id;
END;
