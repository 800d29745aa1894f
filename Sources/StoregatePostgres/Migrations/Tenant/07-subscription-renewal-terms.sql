-- subscription renewal terms

-- The latest transaction's offer period, and Apple's renewal info terms (RenewalTerms as JSON).
ALTER TABLE {{schema}}.subscriptions ADD COLUMN offer_period text, ADD COLUMN renewal jsonb
;
