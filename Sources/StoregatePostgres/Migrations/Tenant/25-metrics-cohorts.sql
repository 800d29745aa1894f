-- monthly cohorts: customers by the month of their first purchase, and what each month of theirs held
--
-- A cohort's member is a customer in one app and environment (a purchase series no customer is linked to
-- stands for its own customer). `metrics_cohort_members` holds each member's first purchase (its date,
-- product and storefront: the cohort and what a query filters it by); `metrics_member_months` holds, per
-- member, month and currency, the subscription periods running in the month (currency ''), the charges made
-- in it (currency '') and the money charged less refunded (the charge's currency). `metrics_cohorts` sums
-- the members' months by cohort: the members (once, in their cohort's first month), those subscribed, those
-- active (subscribed or charged), the money. Appending lifecycle events keeps the three current
-- (`CohortRollup`); `storegate metrics rebuild` makes them again from the events alone, to the same figures.

CREATE TABLE IF NOT EXISTS {{schema}}.metrics_cohort_members (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    member text NOT NULL,
    first_purchase timestamptz NOT NULL,
    product_id text NOT NULL,
    storefront text NOT NULL,
    PRIMARY KEY (app_id, environment, member)
)
;

CREATE TABLE IF NOT EXISTS {{schema}}.metrics_member_months (
    app_id uuid NOT NULL,
    environment text NOT NULL,
    member text NOT NULL,
    month date NOT NULL,
    currency text NOT NULL,
    periods bigint NOT NULL DEFAULT 0,
    charges bigint NOT NULL DEFAULT 0,
    revenue bigint NOT NULL DEFAULT 0,
    proceeds bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (app_id, environment, member, month, currency)
)
;

CREATE TABLE IF NOT EXISTS {{schema}}.metrics_cohorts (
    cohort date NOT NULL,
    month date NOT NULL,
    app_id uuid NOT NULL,
    environment text NOT NULL,
    product_id text NOT NULL,
    storefront text NOT NULL,
    currency text NOT NULL,
    customers bigint NOT NULL DEFAULT 0,
    subscribed bigint NOT NULL DEFAULT 0,
    active bigint NOT NULL DEFAULT 0,
    revenue bigint NOT NULL DEFAULT 0,
    proceeds bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (cohort, month, app_id, environment, product_id, storefront, currency)
)
;
