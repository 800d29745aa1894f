-- order IDs
--
-- The order ID of the customer's App Store invoice, kept on the transactions Apple's Look Up Order ID
-- returned for it: support finds the customer by it later, without asking Apple again.

ALTER TABLE {{schema}}.transactions ADD COLUMN IF NOT EXISTS order_id text
;

CREATE INDEX IF NOT EXISTS transactions_order ON {{schema}}.transactions (order_id) WHERE order_id IS NOT NULL
;
