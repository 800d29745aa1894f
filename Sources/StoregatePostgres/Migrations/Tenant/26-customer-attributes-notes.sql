-- customers' attributes and support notes
--
-- Attributes are the tenant's own facts about a customer (a key and a text value each, set over RPC or in
-- the console); notes are what support wrote about them, with who wrote it and when. Both belong to the
-- customer: deleted with them, and part of what an export of the customer holds.

CREATE TABLE IF NOT EXISTS {{schema}}.customer_attributes (
    customer uuid NOT NULL REFERENCES {{schema}}.customers (id) ON DELETE CASCADE,
    key text NOT NULL,
    value text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (customer, key)
)
;

CREATE TABLE IF NOT EXISTS {{schema}}.customer_notes (
    id uuid PRIMARY KEY,
    customer uuid NOT NULL REFERENCES {{schema}}.customers (id) ON DELETE CASCADE,
    author text NOT NULL,
    text text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
)
;

CREATE INDEX IF NOT EXISTS customer_notes_customer ON {{schema}}.customer_notes (customer, created_at DESC, id DESC)
;
