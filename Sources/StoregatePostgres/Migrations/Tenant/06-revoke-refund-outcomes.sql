-- REVOKE refund outcomes

-- Family Sharing's REVOKE is an outcome too: a family member's access ended.
ALTER TABLE {{schema}}.refund_outcomes DROP CONSTRAINT refund_outcomes_outcome_check
;

ALTER TABLE {{schema}}.refund_outcomes ADD CONSTRAINT refund_outcomes_outcome_check
    CHECK (outcome IN ('REFUND', 'REFUND_DECLINED', 'REFUND_REVERSED', 'REVOKE'))
;
