-- processed notifications whose purchase series is not recorded
--
-- Every erasure and export first labels the notifications processed before tenant migration 27 with their
-- series (`CustomerErasureService.labelNotifications`). Once a tenant's are labelled that search finds
-- none; this partial index, empty then, keeps it from reading every notification to learn so. Processing
-- records a series for each notification it applies, so rows leave the index as they are processed.

CREATE INDEX IF NOT EXISTS notifications_unlabelled ON {{schema}}.notifications (notification_uuid)
WHERE original_transaction_id IS NULL AND processed_at IS NOT NULL AND signed_payload IS NOT NULL
;
