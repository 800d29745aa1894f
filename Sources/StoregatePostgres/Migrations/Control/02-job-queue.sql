-- job queue

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
;

CREATE INDEX jobs_due ON storegate.jobs (due_at)
;
