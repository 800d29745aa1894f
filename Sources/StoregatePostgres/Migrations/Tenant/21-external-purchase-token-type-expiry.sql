-- an external purchase token's type and expiry
--
-- Notifications 2.17: custom link tokens carry tokenType and tokenExpirationDate, and arrive as
-- EXTERNAL_PURCHASE_TOKEN with subtype CREATED and ACTIVE_TOKEN_REMINDER besides UNREPORTED. A token is
-- still one row: the latest notification's subtype, and what each adds.

ALTER TABLE {{schema}}.external_purchase_tokens ADD COLUMN IF NOT EXISTS token_type text, ADD COLUMN IF NOT EXISTS token_expiration_date timestamptz
;
