-- reconciliation jobs
--
-- Two recurring kinds of job: the sweep of an app's notification history in one environment
-- (`<app id>/<environment>`), and the status check of a subscription past its expiry with no renewal heard
-- of (`<app id>/<originalTransactionId>`).

ALTER TABLE storegate.jobs DROP CONSTRAINT IF EXISTS jobs_kind_check
;

ALTER TABLE storegate.jobs ADD CONSTRAINT jobs_kind_check
CHECK (kind IN ('process_notification', 'send_consumption', 'deliver_webhooks', 'sweep_notifications', 'check_renewal'))
;
