-- daily figures rolled up from lifecycle events
--
-- One row per day, app, environment, product, storefront and currency: counts of what happened that day,
-- money (Apple's milliunits) charged and refunded, and the changes that day to the number of active
-- subscriptions and trials and to monthly recurring revenue (a stock on a day is the sum of its changes up
-- to that day). The statement that appends lifecycle events adds to it (`MetricsRollup`); `storegate
-- metrics rebuild` makes it again from the events alone, to the same figures.

CREATE TABLE IF NOT EXISTS {{schema}}.metrics_daily (
    day date NOT NULL,
    app_id uuid NOT NULL,
    environment text NOT NULL,
    product_id text NOT NULL,
    storefront text NOT NULL,
    currency text NOT NULL,
    new_subscriptions bigint NOT NULL DEFAULT 0,
    reactivations bigint NOT NULL DEFAULT 0,
    trial_starts bigint NOT NULL DEFAULT 0,
    trial_conversions bigint NOT NULL DEFAULT 0,
    renewals bigint NOT NULL DEFAULT 0,
    purchases bigint NOT NULL DEFAULT 0,
    cancellations bigint NOT NULL DEFAULT 0,
    billing_issues bigint NOT NULL DEFAULT 0,
    churned_voluntary bigint NOT NULL DEFAULT 0,
    churned_billing bigint NOT NULL DEFAULT 0,
    churned_other bigint NOT NULL DEFAULT 0,
    refunds bigint NOT NULL DEFAULT 0,
    paid_charges bigint NOT NULL DEFAULT 0,
    revenue bigint NOT NULL DEFAULT 0,
    proceeds bigint NOT NULL DEFAULT 0,
    refunded bigint NOT NULL DEFAULT 0,
    refunded_proceeds bigint NOT NULL DEFAULT 0,
    active_change bigint NOT NULL DEFAULT 0,
    trials_change bigint NOT NULL DEFAULT 0,
    mrr_change bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (day, app_id, environment, product_id, storefront, currency)
)
;
