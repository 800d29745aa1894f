-- the tenant's catalog
--
-- What the tenant's apps sell and the entitlements the products unlock (`Catalog`), kept as one document
-- the domain validates whole before it is written: a catalog is small, read whole, and replaced whole.
-- One row at most.

CREATE TABLE IF NOT EXISTS {{schema}}.catalog (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    document jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    updated_by text NOT NULL
)
;
