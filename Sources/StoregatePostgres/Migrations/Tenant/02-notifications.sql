-- notifications

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
;

CREATE INDEX notifications_unprocessed ON {{schema}}.notifications (received_at) WHERE processed_at IS NULL
;

CREATE INDEX notifications_signed_date ON {{schema}}.notifications (app_id, signed_date)
;
