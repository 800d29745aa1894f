-- a tenant's reconciliation settings
--
-- From the tenant's manifest: how often its apps' notification history is swept (0: never) and how long
-- after a subscription's expiry with no renewal heard of Apple is asked; NULL is the server's setting.

ALTER TABLE storegate.tenants
    ADD COLUMN IF NOT EXISTS sweep_minutes integer CHECK (sweep_minutes BETWEEN 0 AND 1440),
    ADD COLUMN IF NOT EXISTS renewal_check_minutes integer CHECK (renewal_check_minutes BETWEEN 1 AND 1440)
;
