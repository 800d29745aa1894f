-- console users
--
-- The people of a tenant who use the support console: an email unique within the tenant, a role, and a
-- bcrypt password hash (none until one is set: they sign in with a one-time link). Sessions and one-time
-- sign-in links are kept as SHA-256 hashes of their secrets: the secrets are in the person's cookie or
-- link only. Failed sign-ins are kept for a while to limit attempts per person.

CREATE TABLE IF NOT EXISTS storegate.console_users (
    id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL REFERENCES storegate.tenants (id) ON DELETE CASCADE,
    email text NOT NULL CHECK (email = lower(email)),
    role text NOT NULL CHECK (role IN ('viewer', 'support', 'admin')),
    password_hash text,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_sign_in_at timestamptz,
    UNIQUE (tenant_id, email)
)
;

CREATE TABLE IF NOT EXISTS storegate.console_sessions (
    secret_hash bytea PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES storegate.console_users (id) ON DELETE CASCADE,
    csrf_token text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
)
;

CREATE INDEX IF NOT EXISTS console_sessions_user ON storegate.console_sessions (user_id)
;

CREATE TABLE IF NOT EXISTS storegate.console_sign_in_links (
    secret_hash bytea PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES storegate.console_users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
)
;

CREATE TABLE IF NOT EXISTS storegate.console_sign_in_failures (
    user_key text NOT NULL,
    failed_at timestamptz NOT NULL DEFAULT now()
)
;

CREATE INDEX IF NOT EXISTS console_sign_in_failures_key ON storegate.console_sign_in_failures (user_key, failed_at)
;
