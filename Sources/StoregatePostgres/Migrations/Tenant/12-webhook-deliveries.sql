-- webhook deliveries
--
-- Each event due at each endpoint whose filter it passes, written with the event; and every
-- attempt to send it. A delivery is retried for 3 days from `retry_from` (its creation, or its
-- redelivery), then dead-lettered (`failed`).
--
-- The endpoint is named without a foreign key to the control schema (see migration 13).
-- former checksum: 167ec9b67f79555825b826b2813affa5a8de2cb59978083b2ad884e3a08463a7

CREATE TABLE {{schema}}.webhook_deliveries (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    endpoint_id uuid NOT NULL,
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
;

CREATE INDEX webhook_deliveries_due ON {{schema}}.webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending'
;

CREATE TABLE {{schema}}.webhook_attempts (
    delivery_id uuid NOT NULL REFERENCES {{schema}}.webhook_deliveries (id) ON DELETE CASCADE,
    number integer NOT NULL,
    attempted_at timestamptz NOT NULL,
    status_code integer,
    latency_ms integer NOT NULL,
    error text,
    PRIMARY KEY (delivery_id, number)
)
;
