-- grants, and a customer's timeline
--
-- A grant is access support gave a customer for a while (compensation): to a product of an app, or to an
-- entitlement named by the tenant, from `starts_at` until `expires_at`, unless revoked earlier. Who gave
-- or revoked it, and why, is kept with it. A customer's timeline is their events in order, read by the
-- index on (customer, sequence).

CREATE TABLE IF NOT EXISTS {{schema}}.grants (
    id uuid PRIMARY KEY,
    customer uuid NOT NULL REFERENCES {{schema}}.customers (id) ON DELETE CASCADE,
    app_id uuid,
    product_id text,
    entitlement text,
    starts_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    reason text NOT NULL,
    granted_by text NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    revoked_by text,
    revoke_reason text,
    CHECK ((product_id IS NULL) = (app_id IS NULL)),
    CHECK ((product_id IS NULL) <> (entitlement IS NULL)),
    CHECK (expires_at > starts_at)
)
;

CREATE INDEX IF NOT EXISTS grants_customer ON {{schema}}.grants (customer, expires_at)
;

CREATE INDEX IF NOT EXISTS events_customer ON {{schema}}.events (customer, sequence) WHERE customer IS NOT NULL
;
