-- subscriptions keyed by app, originalTransactionId and environment: one index where there were two
--
-- The primary key had environment in the middle, so lookups by app and originalTransactionId (a
-- customer's linked subscriptions, status by transaction, a renewal-date extension) needed an index of
-- their own (migration 5). With environment last, the key's index serves both, and every subscription
-- written, and every tenant's first read on a connection (which opens each index of the tables it names
-- to plan), has one index fewer to keep or open. ON CONFLICT names the key's columns, in any order.

ALTER TABLE {{schema}}.subscriptions DROP CONSTRAINT IF EXISTS subscriptions_pkey
;
ALTER TABLE {{schema}}.subscriptions ADD CONSTRAINT subscriptions_pkey PRIMARY KEY (app_id, original_transaction_id, environment)
;
DROP INDEX IF EXISTS {{schema}}.subscriptions_original
;
