-- what customer erasure needs (`customers.delete`)
--
-- Erasing a customer drops the signed copies of their purchases and of the notifications about them (Apple
-- signed their appAccountToken into both) and keeps the decoded facts: so the signed columns may be empty.
-- A processed notification records the purchase series it was about (`original_transaction_id`; '' when it
-- was about none), so an erasure finds the notifications of the customer's series by index instead of
-- decoding every payload. Notifications processed before this migration have it NULL: an erasure decodes
-- those of the customer's apps once and fills it in.

ALTER TABLE {{schema}}.transactions ALTER COLUMN signed_transaction DROP NOT NULL
;

ALTER TABLE {{schema}}.notifications ALTER COLUMN signed_payload DROP NOT NULL
;

ALTER TABLE {{schema}}.notifications ADD COLUMN IF NOT EXISTS original_transaction_id text
;

CREATE INDEX IF NOT EXISTS notifications_original ON {{schema}}.notifications (app_id, original_transaction_id)
;
