-- refund outcomes once, whichever way they were found
--
-- A refund reaches Storegate by Apple's REFUND notification, or by Apple's refund history when the
-- notification was missed (an outage). Either way it is one outcome and one event: a refund is keyed by
-- its transaction and Apple's revocationDate (a refund reversed and refunded again has a new date), so the
-- second path to find it records nothing. An outcome found in refund history has no notification.
--
-- Its `source` check is a statement of its own (dropped first, so that the migration runs again): Citus
-- refuses a column added with a constraint.
-- former checksum: b49a1daedc8e6c72a9bedf7395828c8ca193ff5b73ad89a00863aa0968759b34

ALTER TABLE {{schema}}.refund_outcomes DROP CONSTRAINT IF EXISTS refund_outcomes_pkey
;

ALTER TABLE {{schema}}.refund_outcomes ALTER COLUMN notification_uuid DROP NOT NULL
;

CREATE UNIQUE INDEX IF NOT EXISTS refund_outcomes_notification ON {{schema}}.refund_outcomes (notification_uuid)
;

ALTER TABLE {{schema}}.refund_outcomes
    ADD COLUMN IF NOT EXISTS revocation_date timestamptz,
    ADD COLUMN IF NOT EXISTS source text NOT NULL DEFAULT 'notification'
;

ALTER TABLE {{schema}}.refund_outcomes DROP CONSTRAINT IF EXISTS refund_outcomes_source_check
;

ALTER TABLE {{schema}}.refund_outcomes ADD CONSTRAINT refund_outcomes_source_check CHECK (source IN ('notification', 'refundHistory'))
;

-- Refunds recorded before: the revocation date their transaction holds, for the latest outcome of each
-- (the transaction keeps only its latest revocation).
UPDATE {{schema}}.refund_outcomes o SET revocation_date = t.revocation_date
FROM (
    SELECT DISTINCT ON (app_id, transaction_id, outcome) notification_uuid
    FROM {{schema}}.refund_outcomes
    WHERE outcome IN ('REFUND', 'REVOKE')
    ORDER BY app_id, transaction_id, outcome, signed_date DESC NULLS LAST, recorded_at DESC
) latest
JOIN {{schema}}.refund_outcomes r ON r.notification_uuid = latest.notification_uuid
JOIN {{schema}}.transactions t ON t.app_id = r.app_id AND t.environment = r.environment AND t.transaction_id = r.transaction_id
WHERE o.notification_uuid = latest.notification_uuid
;

CREATE UNIQUE INDEX IF NOT EXISTS refund_outcomes_once ON {{schema}}.refund_outcomes (app_id, transaction_id, outcome, revocation_date)
    WHERE revocation_date IS NOT NULL
;
