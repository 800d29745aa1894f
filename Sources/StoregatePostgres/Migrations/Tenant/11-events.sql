-- events
--
-- The tenant's outbox. `event_sequence` is one row: appending events updates it, so it stays locked
-- until the unit commits, and the numbers are given without gaps in commit order. A
-- `notification.received` event points at its notification instead of copying the signed payload.

CREATE TABLE {{schema}}.event_sequence (single boolean PRIMARY KEY DEFAULT true CHECK (single), last bigint NOT NULL)
;

INSERT INTO {{schema}}.event_sequence (last) VALUES (0)
;

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
;

CREATE INDEX events_type ON {{schema}}.events (type, sequence)
;
