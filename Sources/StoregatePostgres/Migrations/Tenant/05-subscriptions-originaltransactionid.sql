-- subscriptions by originalTransactionId

-- The primary key has environment in the middle: lookups by app and originalTransactionId (a customer's
-- linked subscriptions, status by transaction) scanned the table without this.
CREATE INDEX subscriptions_original ON {{schema}}.subscriptions (app_id, original_transaction_id)
;
