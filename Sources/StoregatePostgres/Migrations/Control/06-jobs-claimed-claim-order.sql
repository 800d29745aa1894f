-- jobs claimed in claim order
--
-- Claims whose worker died (still claimed, lease run out) are taken first: their work was due before
-- the lease pushed their due time on.

CREATE INDEX jobs_claim_order ON storegate.jobs ((claimed_by IS NULL), due_at)
;
