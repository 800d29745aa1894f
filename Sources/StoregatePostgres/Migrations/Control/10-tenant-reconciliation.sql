-- a tenant's reconciliation settings
--
-- From the tenant's manifest: how often its apps' notification history is swept (0: never) and how long
-- after a subscription's expiry with no renewal heard of Apple is asked; NULL is the server's setting.
--
-- The checks are statements of their own (each dropped first, so that the migration runs again): Citus
-- refuses a column added with a constraint (the control tables are Citus local tables there).
-- former checksum: 535513429dec247862fa0c8dcf3a8f7a722a17f40af713b24f2a148c1d4ef36c

ALTER TABLE storegate.tenants ADD COLUMN IF NOT EXISTS sweep_minutes integer, ADD COLUMN IF NOT EXISTS renewal_check_minutes integer
;

ALTER TABLE storegate.tenants DROP CONSTRAINT IF EXISTS tenants_sweep_minutes_check
;

ALTER TABLE storegate.tenants ADD CONSTRAINT tenants_sweep_minutes_check CHECK (sweep_minutes BETWEEN 0 AND 1440)
;

ALTER TABLE storegate.tenants DROP CONSTRAINT IF EXISTS tenants_renewal_check_minutes_check
;

ALTER TABLE storegate.tenants ADD CONSTRAINT tenants_renewal_check_minutes_check CHECK (renewal_check_minutes BETWEEN 1 AND 1440)
;
