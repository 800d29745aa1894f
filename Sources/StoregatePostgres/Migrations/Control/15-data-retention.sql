-- data retention windows per tenant, and the job that keeps them
--
-- A tenant's windows, in minutes, from its manifest or `dataRetention.set`; NULL is the documented
-- default. The checks are statements of their own (each dropped first, so that the migration runs again):
-- Citus refuses a column added with a constraint. 52,560,000 minutes is 100 years.

ALTER TABLE storegate.tenants
    ADD COLUMN IF NOT EXISTS retain_notification_payloads_minutes integer,
    ADD COLUMN IF NOT EXISTS retain_events_minutes integer,
    ADD COLUMN IF NOT EXISTS retain_webhook_deliveries_minutes integer,
    ADD COLUMN IF NOT EXISTS retain_audit_entries_minutes integer,
    ADD COLUMN IF NOT EXISTS retain_console_sessions_minutes integer
;

ALTER TABLE storegate.tenants DROP CONSTRAINT IF EXISTS tenants_retention_minutes_check
;

ALTER TABLE storegate.tenants ADD CONSTRAINT tenants_retention_minutes_check CHECK (
    retain_notification_payloads_minutes BETWEEN 1 AND 52560000 AND retain_events_minutes BETWEEN 1 AND 52560000
    AND retain_webhook_deliveries_minutes BETWEEN 1 AND 52560000 AND retain_audit_entries_minutes BETWEEN 1 AND 52560000
    AND retain_console_sessions_minutes BETWEEN 1 AND 52560000)
;

-- One recurring data-retention job per tenant (ref `all`).
ALTER TABLE storegate.jobs DROP CONSTRAINT IF EXISTS jobs_kind_check
;

ALTER TABLE storegate.jobs ADD CONSTRAINT jobs_kind_check
CHECK (kind IN ('process_notification', 'send_consumption', 'deliver_webhooks', 'sweep_notifications', 'check_renewal', 'data_retention'))
;

-- Ended sessions (expired or signed out), oldest first, for the job.
CREATE INDEX IF NOT EXISTS console_sessions_ended ON storegate.console_sessions (expires_at)
;
