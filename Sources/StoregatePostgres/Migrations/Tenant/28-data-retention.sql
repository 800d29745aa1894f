-- data retention: what the retention job deletes by, and what it deleted
--
-- The job deletes what is older than the tenant's windows in small batches, each found through an
-- index, so no batch reads a whole table. A notification row is also the duplicate check (its
-- notification_uuid), so past its window only its raw signed payload is dropped: the column becomes
-- nullable (as customer erasure's migration 27 makes it; repeating it is harmless).

ALTER TABLE {{schema}}.notifications ALTER COLUMN signed_payload DROP NOT NULL
;

-- Processed notifications that still hold their payload, oldest first: a payload dropped leaves it.
CREATE INDEX IF NOT EXISTS notifications_payload_kept ON {{schema}}.notifications (received_at)
WHERE signed_payload IS NOT NULL AND processed_at IS NOT NULL
;

CREATE INDEX IF NOT EXISTS events_created ON {{schema}}.events (created_at)
;

-- An event's deliveries, deleted before it (the foreign key has no cascade).
CREATE INDEX IF NOT EXISTS webhook_deliveries_event ON {{schema}}.webhook_deliveries (event_sequence)
;

-- Finished deliveries (delivered or given up), oldest first: pending ones are left to their retries.
CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON {{schema}}.webhook_deliveries (finished_at)
WHERE status <> 'pending'
;

-- Per kind, how many rows the job deleted and the newest time it deleted up to. `metrics rebuild` reads
-- the events' row: figures rolled up from deleted events cannot be made again.
CREATE TABLE IF NOT EXISTS {{schema}}.data_retention_deleted (
    kind text PRIMARY KEY,
    deleted bigint NOT NULL DEFAULT 0,
    deleted_before timestamptz NOT NULL,
    last_run_at timestamptz NOT NULL DEFAULT now()
)
;
