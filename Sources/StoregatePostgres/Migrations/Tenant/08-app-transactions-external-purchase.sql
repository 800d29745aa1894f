-- app transactions, external purchase tokens, mass extension summaries

CREATE TABLE {{schema}}.app_transactions (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    app_transaction_id text NOT NULL,
    original_purchase_date timestamptz,
    original_platform text,
    signed_date timestamptz,
    signed_app_transaction text NOT NULL,
    payload jsonb NOT NULL,
    consent_rescinded_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, environment, app_transaction_id)
)
;

CREATE TABLE {{schema}}.external_purchase_tokens (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    external_purchase_id text NOT NULL,
    token_creation_date timestamptz,
    subtype text,
    notification_uuid uuid NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, external_purchase_id)
)
;

CREATE INDEX external_purchase_tokens_received ON {{schema}}.external_purchase_tokens (received_at)
;

-- A summary may name a mass extension asked for outside Storegate: its days and reason are then unknown.
ALTER TABLE {{schema}}.renewal_extensions
    ALTER COLUMN extend_by_days DROP NOT NULL, ALTER COLUMN extend_reason_code DROP NOT NULL,
    ADD COLUMN storefront_country_codes text[], ADD COLUMN succeeded_count bigint, ADD COLUMN failed_count bigint,
    ADD COLUMN completed_at timestamptz
;
