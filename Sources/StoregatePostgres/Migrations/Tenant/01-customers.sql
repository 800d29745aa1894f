-- customers

CREATE TABLE {{schema}}.customers (
    id uuid PRIMARY KEY,
    customer_id text NOT NULL UNIQUE,
    app_account_token uuid NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
)
;
