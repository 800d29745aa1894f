-- account links and transactions

CREATE TABLE {{schema}}.account_links (
    app_id uuid NOT NULL,
    kind text NOT NULL CHECK (kind IN ('appTransactionId', 'originalTransactionId')),
    value text NOT NULL,
    customer uuid NOT NULL REFERENCES {{schema}}.customers (id) ON DELETE CASCADE,
    linked_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, kind, value)
)
;

CREATE INDEX account_links_customer ON {{schema}}.account_links (customer)
;

CREATE TABLE {{schema}}.transactions (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    transaction_id text NOT NULL,
    original_transaction_id text NOT NULL,
    app_transaction_id text,
    customer uuid REFERENCES {{schema}}.customers (id) ON DELETE SET NULL,
    product_id text NOT NULL,
    product_type text NOT NULL,
    purchase_date timestamptz,
    expires_date timestamptz,
    revocation_date timestamptz,
    app_account_token uuid,
    signed_date timestamptz,
    signed_transaction text NOT NULL,
    payload jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, environment, transaction_id)
)
;

CREATE INDEX transactions_original ON {{schema}}.transactions (app_id, original_transaction_id)
;

CREATE INDEX transactions_customer ON {{schema}}.transactions (customer)
;
