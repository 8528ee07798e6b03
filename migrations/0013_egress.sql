-- Issue 11 §5 (EGRESS-*, QDB-10): a connection may send its traffic through its own outbound proxy
-- (so two keys stop sharing the laptop's IP), and the IP the probe last saw is recorded. Forward-only.
-- The proxy URL may carry credentials in its userinfo; the repository masks them in every view.
ALTER TABLE connections ADD COLUMN outbound_proxy_url TEXT NULL;
ALTER TABLE connections ADD COLUMN egress_ip TEXT NULL CHECK (egress_ip IS NULL OR length(egress_ip) BETWEEN 1 AND 64);
ALTER TABLE connections ADD COLUMN egress_ip_at INTEGER NULL;

-- QDB-10 names `proxy_logs.egress_ip` with `idx_pl_timestamp`; ours is request_log with request_log_ts.
-- The egress lock scans it by time window only (EGRESS-10), so no new index.
ALTER TABLE request_log ADD COLUMN egress_ip TEXT NULL;

-- Each row takes the connection's recorded egress IP as it is written, so the writer stays unaware
-- of it and the lock reads history ("last known IP", EGRESS-4), not the current probe.
CREATE TRIGGER IF NOT EXISTS request_log_egress_ip AFTER INSERT ON request_log
WHEN NEW.egress_ip IS NULL AND NEW.connection IS NOT NULL
BEGIN
  UPDATE request_log SET egress_ip = (SELECT egress_ip FROM connections WHERE name = NEW.connection)
  WHERE id = NEW.id;
END;
