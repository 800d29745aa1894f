-- subscriptions, refunds, consumption requests, renewal extensions

CREATE TABLE {{schema}}.subscriptions (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    original_transaction_id text NOT NULL,
    subscription_group_identifier text,
    customer uuid REFERENCES {{schema}}.customers (id) ON DELETE SET NULL,
    status integer NOT NULL,
    product_id text NOT NULL,
    latest_transaction_id text NOT NULL,
    purchase_date timestamptz,
    expires_date timestamptz,
    auto_renew_status boolean,
    auto_renew_product_id text,
    in_billing_retry boolean NOT NULL DEFAULT false,
    grace_period_expires_date timestamptz,
    offer_type integer,
    offer_identifier text,
    price bigint,
    currency text,
    signed_date timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, environment, original_transaction_id)
)
;

CREATE INDEX subscriptions_customer ON {{schema}}.subscriptions (customer)
;

CREATE TABLE {{schema}}.refund_outcomes (
    notification_uuid uuid PRIMARY KEY,
    app_id uuid NOT NULL,
    environment text NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('REFUND', 'REFUND_DECLINED', 'REFUND_REVERSED')),
    transaction_id text NOT NULL,
    original_transaction_id text NOT NULL,
    product_id text NOT NULL,
    product_type text NOT NULL,
    quantity integer NOT NULL DEFAULT 1,
    family_shared boolean NOT NULL DEFAULT false,
    refund_percentage integer,
    revocation_type text,
    revocation_reason integer,
    customer uuid REFERENCES {{schema}}.customers (id) ON DELETE SET NULL,
    signed_date timestamptz,
    recorded_at timestamptz NOT NULL DEFAULT now()
)
;

CREATE INDEX refund_outcomes_transaction ON {{schema}}.refund_outcomes (app_id, transaction_id)
;

CREATE INDEX refund_outcomes_customer ON {{schema}}.refund_outcomes (customer)
;

CREATE TABLE {{schema}}.consumption_facts (
    app_id uuid NOT NULL,
    transaction_id text NOT NULL,
    facts jsonb NOT NULL,
    reported_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, transaction_id)
)
;

CREATE TABLE {{schema}}.consumption_requests (
    id uuid PRIMARY KEY,
    app_id uuid NOT NULL,
    environment text NOT NULL,
    transaction_id text NOT NULL,
    original_transaction_id text NOT NULL,
    product_type text NOT NULL,
    customer uuid REFERENCES {{schema}}.customers (id) ON DELETE SET NULL,
    reason text,
    requested_at timestamptz NOT NULL,
    deadline timestamptz NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'sent', 'not_sent', 'expired')),
    status_reason text,
    api_version text,
    sent_body jsonb,
    sent_at timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    last_error text,
    updated_at timestamptz NOT NULL DEFAULT now()
)
;

CREATE INDEX consumption_requests_transaction ON {{schema}}.consumption_requests (app_id, transaction_id)
;

CREATE INDEX consumption_requests_pending ON {{schema}}.consumption_requests (deadline) WHERE status = 'pending'
;

CREATE TABLE {{schema}}.refund_policies (
    app_id uuid PRIMARY KEY,
    policy jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
)
;

CREATE TABLE {{schema}}.renewal_extensions (
    request_identifier text PRIMARY KEY,
    app_id uuid NOT NULL,
    environment text NOT NULL,
    original_transaction_id text,
    product_id text,
    extend_by_days integer NOT NULL,
    extend_reason_code integer NOT NULL,
    mass boolean NOT NULL,
    effective_date timestamptz,
    succeeded boolean,
    requested_at timestamptz NOT NULL DEFAULT now()
)
;

CREATE INDEX renewal_extensions_subscription ON {{schema}}.renewal_extensions (app_id, original_transaction_id, requested_at)
;
