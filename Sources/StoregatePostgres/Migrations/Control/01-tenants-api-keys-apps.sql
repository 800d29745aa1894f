-- tenants, api keys, apps, app keys, webhooks, audit log

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
;

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
;

CREATE INDEX api_keys_tenant ON storegate.api_keys (tenant_id)
;

CREATE TABLE storegate.apps (
    id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
    bundle_id text NOT NULL,
    app_apple_id bigint,
    environments text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, bundle_id)
)
;

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
;

CREATE INDEX app_keys_master_key ON storegate.app_keys (master_key_id)
;

CREATE TABLE storegate.webhooks (
    token text PRIMARY KEY,
    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
    app_id uuid NOT NULL REFERENCES storegate.apps (id) ON DELETE CASCADE,
    environment text NOT NULL,
    UNIQUE (app_id, environment)
)
;

CREATE TABLE storegate.audit_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    actor text NOT NULL,
    tenant_id uuid,
    action text NOT NULL,
    detail jsonb NOT NULL DEFAULT '{}'
)
;

CREATE INDEX audit_log_tenant ON storegate.audit_log (tenant_id, at)
;
