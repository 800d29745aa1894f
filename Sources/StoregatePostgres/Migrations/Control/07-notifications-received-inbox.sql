-- notifications received into one inbox
--
-- Notifications Apple delivered, acknowledged and not yet taken into their tenant's schema (see
-- `NotificationInbox`): one statement text for every tenant, so the acknowledgement is prepared once
-- per connection and costs the same at any number of tenants. A row lives until its tenant's
-- processing job takes it in; its columns are the tenant table's as received.

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
;
