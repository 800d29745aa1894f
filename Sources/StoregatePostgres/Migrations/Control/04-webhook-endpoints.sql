-- webhook endpoints
--
-- Where a tenant's events are sent. The signing secrets are sealed like app keys (and re-wrapped
-- with them when the master key rotates); a rotated secret keeps signing until `expires_at`.
-- Sending is a job per endpoint (`deliver_webhooks`, its ref the endpoint's id).

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
;

CREATE INDEX webhook_endpoints_tenant ON storegate.webhook_endpoints (tenant_id)
;

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
;

CREATE INDEX webhook_secrets_endpoint ON storegate.webhook_secrets (endpoint_id)
;

ALTER TABLE storegate.jobs DROP CONSTRAINT jobs_kind_check
;

ALTER TABLE storegate.jobs ADD CONSTRAINT jobs_kind_check
CHECK (kind IN ('process_notification', 'send_consumption', 'deliver_webhooks'))
;
