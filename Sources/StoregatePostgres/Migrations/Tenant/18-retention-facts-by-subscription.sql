-- a subscription's refunds and consumption requests, found by its original transaction
--
-- A Get Retention Message request names a subscription by its originalTransactionId; rules on refunds and
-- consumption requests count those of the subscription when no customer is linked to it.

CREATE INDEX IF NOT EXISTS refund_outcomes_original ON {{schema}}.refund_outcomes (app_id, original_transaction_id)
;

CREATE INDEX IF NOT EXISTS consumption_requests_original ON {{schema}}.consumption_requests (app_id, original_transaction_id)
;
