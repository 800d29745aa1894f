-- a subscription's billing plan and 12-month commitment
--
-- App Store Server API 1.21: the latest transaction's billingPlanType (MONTHLY for a commitment) and its
-- commitmentInfo (the month billed of how many, the commitment's end and total price) as Commitment JSON.
-- What happens when the commitment ends is in the renewal terms already kept (renewal).

ALTER TABLE {{schema}}.subscriptions ADD COLUMN IF NOT EXISTS billing_plan_type text, ADD COLUMN IF NOT EXISTS commitment jsonb
;
