-- exchange rates the operator loads (`storegate rates load FILE.csv`)
--
-- One unit of `currency` is worth `rate` units of `target` on `day` (and after, until a later day's rate):
-- metrics converted to one currency use the rate of each figure's day.

CREATE TABLE IF NOT EXISTS storegate.exchange_rates (
    target text NOT NULL,
    currency text NOT NULL,
    day date NOT NULL,
    rate numeric NOT NULL CHECK (rate > 0),
    loaded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (target, currency, day)
)
;
