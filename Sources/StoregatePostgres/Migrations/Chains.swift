/// The control schema `storegate`: tenants, API keys, apps, key material, webhook tokens, audit log.
public enum ControlChain {
    public static let schema = "storegate"

    public static let chain = MigrationChain([
        Migration(
            1, "tenants, api keys, apps, app keys, webhooks, audit log",
            [
                """
                CREATE TABLE storegate.tenants (
                    id uuid PRIMARY KEY,
                    slug text NOT NULL UNIQUE,
                    name text NOT NULL,
                    schema_name text NOT NULL UNIQUE,
                    status text NOT NULL CHECK (status IN ('active', 'suspended')),
                    schema_version integer NOT NULL DEFAULT 0,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE storegate.api_keys (
                    id uuid PRIMARY KEY,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    prefix text NOT NULL UNIQUE,
                    secret_hash bytea NOT NULL,
                    label text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    last_used_at timestamptz,
                    revoked_at timestamptz
                )
                """,
                "CREATE INDEX api_keys_tenant ON storegate.api_keys (tenant_id)",
                """
                CREATE TABLE storegate.apps (
                    id uuid PRIMARY KEY,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    bundle_id text NOT NULL,
                    app_apple_id bigint,
                    environments text[] NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    UNIQUE (tenant_id, bundle_id)
                )
                """,
                """
                CREATE TABLE storegate.app_keys (
                    id uuid PRIMARY KEY,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    app_id uuid NOT NULL REFERENCES storegate.apps (id) ON DELETE CASCADE,
                    kind text NOT NULL,
                    key_id text NOT NULL,
                    issuer_id uuid NOT NULL,
                    public_key bytea NOT NULL,
                    sealed_format integer NOT NULL,
                    master_key_id text NOT NULL,
                    wrapped_data_key bytea NOT NULL,
                    ciphertext bytea NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    rewrapped_at timestamptz,
                    UNIQUE (app_id, key_id)
                )
                """,
                "CREATE INDEX app_keys_master_key ON storegate.app_keys (master_key_id)",
                """
                CREATE TABLE storegate.webhooks (
                    token text PRIMARY KEY,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    app_id uuid NOT NULL REFERENCES storegate.apps (id) ON DELETE CASCADE,
                    environment text NOT NULL,
                    UNIQUE (app_id, environment)
                )
                """,
                """
                CREATE TABLE storegate.audit_log (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    at timestamptz NOT NULL DEFAULT now(),
                    actor text NOT NULL,
                    tenant_id uuid,
                    action text NOT NULL,
                    detail jsonb NOT NULL DEFAULT '{}'
                )
                """,
                "CREATE INDEX audit_log_tenant ON storegate.audit_log (tenant_id, at)",
            ]
        ),
        Migration(
            2, "job queue",
            [
                """
                CREATE TABLE storegate.jobs (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    kind text NOT NULL CHECK (kind IN ('process_notification', 'send_consumption')),
                    ref text NOT NULL,
                    due_at timestamptz NOT NULL,
                    attempts integer NOT NULL DEFAULT 0,
                    last_error text,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    UNIQUE (tenant_id, kind, ref)
                )
                """,
                "CREATE INDEX jobs_due ON storegate.jobs (due_at)",
            ]
        ),
        Migration(
            3, "changes to tenants, API keys, apps, app keys and webhooks announced (NOTIFY storegate_changes)",
            [
                // The tenant id is in the column the trigger's argument names. An API key's last use is
                // not announced: it is written on the key's first use in each process.
                """
                CREATE FUNCTION storegate.announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    changed record;
                BEGIN
                    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                    PERFORM pg_notify('storegate_changes', to_jsonb(changed) ->> TG_ARGV[0]);
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER announce_change AFTER UPDATE OR DELETE ON storegate.tenants
                FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('id')
                """,
                """
                CREATE TRIGGER announce_change AFTER UPDATE OF revoked_at, secret_hash, tenant_id OR DELETE ON storegate.api_keys
                FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('tenant_id')
                """,
            ]
                + ["apps", "app_keys", "webhooks"].map { table in
                    """
                    CREATE TRIGGER announce_change AFTER INSERT OR UPDATE OR DELETE ON storegate.\(table)
                    FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('tenant_id')
                    """
                }
        ),
        // Where a tenant's events are sent. The signing secrets are sealed like app keys (and re-wrapped
        // with them when the master key rotates); a rotated secret keeps signing until `expires_at`.
        // Sending is a job per endpoint (`deliver_webhooks`, its ref the endpoint's id).
        Migration(
            4, "webhook endpoints",
            [
                """
                CREATE TABLE storegate.webhook_endpoints (
                    id uuid PRIMARY KEY,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    url text NOT NULL,
                    description text NOT NULL DEFAULT '',
                    event_types text[] NOT NULL DEFAULT '{}',
                    app_id uuid REFERENCES storegate.apps (id) ON DELETE CASCADE,
                    environment text,
                    failing_since timestamptz,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX webhook_endpoints_tenant ON storegate.webhook_endpoints (tenant_id)",
                """
                CREATE TABLE storegate.webhook_secrets (
                    id uuid PRIMARY KEY,
                    endpoint_id uuid NOT NULL REFERENCES storegate.webhook_endpoints (id) ON DELETE CASCADE,
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    sealed_format integer NOT NULL,
                    master_key_id text NOT NULL,
                    wrapped_data_key bytea NOT NULL,
                    ciphertext bytea NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    expires_at timestamptz,
                    rewrapped_at timestamptz
                )
                """,
                "CREATE INDEX webhook_secrets_endpoint ON storegate.webhook_secrets (endpoint_id)",
                "ALTER TABLE storegate.jobs DROP CONSTRAINT jobs_kind_check",
                """
                ALTER TABLE storegate.jobs ADD CONSTRAINT jobs_kind_check
                CHECK (kind IN ('process_notification', 'send_consumption', 'deliver_webhooks'))
                """,
            ]
        ),
        // A claim names its worker, which renews the claim's lease while it runs the job (and hands it back when it stops).
        Migration(5, "job claims held by their worker", ["ALTER TABLE storegate.jobs ADD COLUMN claimed_by uuid"]),
        // Claims whose worker died (still claimed, lease run out) are taken first: their work was due before
        // the lease pushed their due time on.
        Migration(6, "jobs claimed in claim order", ["CREATE INDEX jobs_claim_order ON storegate.jobs ((claimed_by IS NULL), due_at)"]),
        // Notifications Apple delivered, acknowledged and not yet taken into their tenant's schema (see
        // `NotificationInbox`): one statement text for every tenant, so the acknowledgement is prepared once
        // per connection and costs the same at any number of tenants. A row lives until its tenant's
        // processing job takes it in; its columns are the tenant table's as received.
        Migration(
            7, "notifications received into one inbox",
            [
                """
                CREATE TABLE storegate.notification_inbox (
                    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
                    notification_uuid uuid NOT NULL,
                    app_id uuid NOT NULL,
                    environment text NOT NULL,
                    notification_type text NOT NULL,
                    subtype text,
                    signed_date timestamptz,
                    signed_payload text COMPRESSION lz4 NOT NULL,
                    source text NOT NULL CHECK (source IN ('webhook', 'backfill')),
                    received_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (tenant_id, notification_uuid)
                )
                """
            ]),
    ])
}

/// The chain every tenant schema runs. Each statement names `{{schema}}`.
public enum TenantChain {
    public static let chain = MigrationChain([
        Migration(
            1, "customers",
            [
                """
                CREATE TABLE {{schema}}.customers (
                    id uuid PRIMARY KEY,
                    customer_id text NOT NULL UNIQUE,
                    app_account_token uuid NOT NULL UNIQUE,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """
            ]
        ),
        Migration(
            2, "notifications",
            [
                """
                CREATE TABLE {{schema}}.notifications (
                    notification_uuid uuid PRIMARY KEY,
                    app_id uuid NOT NULL,
                    environment text NOT NULL,
                    notification_type text NOT NULL,
                    subtype text,
                    signed_date timestamptz,
                    signed_payload text NOT NULL,
                    payload jsonb NOT NULL,
                    source text NOT NULL CHECK (source IN ('webhook', 'backfill')),
                    received_at timestamptz NOT NULL DEFAULT now(),
                    processed_at timestamptz,
                    processing_error text
                )
                """,
                "CREATE INDEX notifications_unprocessed ON {{schema}}.notifications (received_at) WHERE processed_at IS NULL",
                "CREATE INDEX notifications_signed_date ON {{schema}}.notifications (app_id, signed_date)",
            ]
        ),
        Migration(
            3, "account links and transactions",
            [
                """
                CREATE TABLE {{schema}}.account_links (
                    app_id uuid NOT NULL,
                    kind text NOT NULL CHECK (kind IN ('appTransactionId', 'originalTransactionId')),
                    value text NOT NULL,
                    customer uuid NOT NULL REFERENCES {{schema}}.customers (id) ON DELETE CASCADE,
                    linked_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (app_id, kind, value)
                )
                """,
                "CREATE INDEX account_links_customer ON {{schema}}.account_links (customer)",
                """
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
                """,
                "CREATE INDEX transactions_original ON {{schema}}.transactions (app_id, original_transaction_id)",
                "CREATE INDEX transactions_customer ON {{schema}}.transactions (customer)",
            ]
        ),
        Migration(
            4, "subscriptions, refunds, consumption requests, renewal extensions",
            [
                """
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
                """,
                "CREATE INDEX subscriptions_customer ON {{schema}}.subscriptions (customer)",
                """
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
                """,
                "CREATE INDEX refund_outcomes_transaction ON {{schema}}.refund_outcomes (app_id, transaction_id)",
                "CREATE INDEX refund_outcomes_customer ON {{schema}}.refund_outcomes (customer)",
                """
                CREATE TABLE {{schema}}.consumption_facts (
                    app_id uuid NOT NULL,
                    transaction_id text NOT NULL,
                    facts jsonb NOT NULL,
                    reported_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (app_id, transaction_id)
                )
                """,
                """
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
                """,
                "CREATE INDEX consumption_requests_transaction ON {{schema}}.consumption_requests (app_id, transaction_id)",
                "CREATE INDEX consumption_requests_pending ON {{schema}}.consumption_requests (deadline) WHERE status = 'pending'",
                """
                CREATE TABLE {{schema}}.refund_policies (
                    app_id uuid PRIMARY KEY,
                    policy jsonb NOT NULL,
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
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
                """,
                "CREATE INDEX renewal_extensions_subscription ON {{schema}}.renewal_extensions (app_id, original_transaction_id, requested_at)",
            ]
        ),
        Migration(
            5, "subscriptions by originalTransactionId",
            [
                // The primary key has environment in the middle: lookups by app and originalTransactionId (a customer's
                // linked subscriptions, status by transaction) scanned the table without this.
                "CREATE INDEX subscriptions_original ON {{schema}}.subscriptions (app_id, original_transaction_id)"
            ]
        ),
        Migration(
            6, "REVOKE refund outcomes",
            [
                // Family Sharing's REVOKE is an outcome too: a family member's access ended.
                "ALTER TABLE {{schema}}.refund_outcomes DROP CONSTRAINT refund_outcomes_outcome_check",
                """
                ALTER TABLE {{schema}}.refund_outcomes ADD CONSTRAINT refund_outcomes_outcome_check
                    CHECK (outcome IN ('REFUND', 'REFUND_DECLINED', 'REFUND_REVERSED', 'REVOKE'))
                """,
            ]
        ),
        Migration(
            7, "subscription renewal terms",
            [
                // The latest transaction's offer period, and Apple's renewal info terms (RenewalTerms as JSON).
                "ALTER TABLE {{schema}}.subscriptions ADD COLUMN offer_period text, ADD COLUMN renewal jsonb"
            ]
        ),
        Migration(
            8, "app transactions, external purchase tokens, mass extension summaries",
            [
                """
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
                """,
                """
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
                """,
                "CREATE INDEX external_purchase_tokens_received ON {{schema}}.external_purchase_tokens (received_at)",
                // A summary may name a mass extension asked for outside Storegate: its days and reason are then unknown.
                """
                ALTER TABLE {{schema}}.renewal_extensions
                    ALTER COLUMN extend_by_days DROP NOT NULL, ALTER COLUMN extend_reason_code DROP NOT NULL,
                    ADD COLUMN storefront_country_codes text[], ADD COLUMN succeeded_count bigint, ADD COLUMN failed_count bigint,
                    ADD COLUMN completed_at timestamptz
                """,
            ]
        ),
        // Signed data is stored on every notification and transaction, and compressing it with the default
        // (pglz) was an eighth of PostgreSQL's time on ingestion; lz4 compresses it several times faster.
        // Values already stored keep their compression.
        Migration(
            9, "signed data compressed with lz4",
            [
                "ALTER TABLE {{schema}}.notifications ALTER COLUMN signed_payload SET COMPRESSION lz4, ALTER COLUMN payload SET COMPRESSION lz4",
                "ALTER TABLE {{schema}}.transactions ALTER COLUMN signed_transaction SET COMPRESSION lz4, ALTER COLUMN payload SET COMPRESSION lz4",
                """
                ALTER TABLE {{schema}}.app_transactions
                    ALTER COLUMN signed_app_transaction SET COMPRESSION lz4, ALTER COLUMN payload SET COMPRESSION lz4
                """,
            ]
        ),
        // A notification's payload is the middle part of its signed payload: stored once, it is read from
        // there. Storing its JSON again was a quarter of the time PostgreSQL took to store a notification.
        Migration(10, "notifications stored once, as signed", ["ALTER TABLE {{schema}}.notifications DROP COLUMN payload"]),
        // The tenant's outbox. `event_sequence` is one row: appending events updates it, so it stays locked
        // until the unit commits, and the numbers are given without gaps in commit order. A
        // `notification.received` event points at its notification instead of copying the signed payload.
        Migration(
            11, "events",
            [
                "CREATE TABLE {{schema}}.event_sequence (single boolean PRIMARY KEY DEFAULT true CHECK (single), last bigint NOT NULL)",
                "INSERT INTO {{schema}}.event_sequence (last) VALUES (0)",
                """
                CREATE TABLE {{schema}}.events (
                    sequence bigint PRIMARY KEY,
                    id uuid NOT NULL UNIQUE,
                    type text NOT NULL,
                    app_id uuid,
                    environment text,
                    customer uuid,
                    notification_uuid uuid,
                    data jsonb NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX events_type ON {{schema}}.events (type, sequence)",
            ]
        ),
        // Each event due at each endpoint whose filter it passes, written with the event; and every
        // attempt to send it. A delivery is retried for 3 days from `retry_from` (its creation, or its
        // redelivery), then dead-lettered (`failed`).
        Migration(
            12, "webhook deliveries",
            [
                """
                CREATE TABLE {{schema}}.webhook_deliveries (
                    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
                    endpoint_id uuid NOT NULL REFERENCES storegate.webhook_endpoints (id) ON DELETE CASCADE,
                    event_sequence bigint NOT NULL REFERENCES {{schema}}.events (sequence),
                    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
                    attempts integer NOT NULL DEFAULT 0,
                    next_attempt_at timestamptz NOT NULL DEFAULT now(),
                    leased_until timestamptz,
                    retry_from timestamptz NOT NULL DEFAULT now(),
                    created_at timestamptz NOT NULL DEFAULT now(),
                    finished_at timestamptz,
                    UNIQUE (endpoint_id, event_sequence)
                )
                """,
                "CREATE INDEX webhook_deliveries_due ON {{schema}}.webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending'",
                """
                CREATE TABLE {{schema}}.webhook_attempts (
                    delivery_id uuid NOT NULL REFERENCES {{schema}}.webhook_deliveries (id) ON DELETE CASCADE,
                    number integer NOT NULL,
                    attempted_at timestamptz NOT NULL,
                    status_code integer,
                    latency_ms integer NOT NULL,
                    error text,
                    PRIMARY KEY (delivery_id, number)
                )
                """,
            ]
        ),
    ])
}
