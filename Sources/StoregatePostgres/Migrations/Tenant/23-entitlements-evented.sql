-- the entitlement names last evented per customer
--
-- `entitlements.changed` is appended when a unit of work changes the set of entitlement names a customer
-- has: this row is the set the last such event reported (sorted), so a write that leaves the set as it
-- was makes no event. A customer with no row has had no name evented (the empty set).

CREATE TABLE IF NOT EXISTS {{schema}}.entitlements_evented (
    customer uuid PRIMARY KEY REFERENCES {{schema}}.customers (id) ON DELETE CASCADE,
    names text[] NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
)
;
