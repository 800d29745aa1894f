-- reconciliation
--
-- What the scheduled sweeps of Apple's notification history did, per app and environment: how far they
-- have looked (the next sweep starts there, less an overlap), and counts of what they found, applied and
-- failed on, with the last error. Shown to support and operators; the sweeps themselves are jobs.

CREATE TABLE IF NOT EXISTS {{schema}}.notification_sweeps (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    swept_until timestamptz NOT NULL,
    last_run_at timestamptz NOT NULL,
    runs bigint NOT NULL DEFAULT 0,
    found bigint NOT NULL DEFAULT 0,
    applied bigint NOT NULL DEFAULT 0,
    failed bigint NOT NULL DEFAULT 0,
    last_error text,
    PRIMARY KEY (app_id, environment)
)
;
