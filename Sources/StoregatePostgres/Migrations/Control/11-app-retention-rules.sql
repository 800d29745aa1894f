-- an app's retention rules
--
-- How Storegate answers Apple's Get Retention Message requests for the app (`retention.rules.set`, the
-- manifest): a JSON array of rules, the first that holds answering; NULL for none. Kept with the app, so a
-- change is announced as every change to an app is (the apps trigger of migration 03) and each process's
-- cache of rules drops the tenant's entries as it commits.

ALTER TABLE storegate.apps ADD COLUMN IF NOT EXISTS retention_rules jsonb
;
