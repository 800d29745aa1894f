-- signed data compressed with lz4
--
-- Signed data is stored on every notification and transaction, and compressing it with the default
-- (pglz) was an eighth of PostgreSQL's time on ingestion; lz4 compresses it several times faster.
-- Values already stored keep their compression.

ALTER TABLE {{schema}}.notifications ALTER COLUMN signed_payload SET COMPRESSION lz4, ALTER COLUMN payload SET COMPRESSION lz4
;

ALTER TABLE {{schema}}.transactions ALTER COLUMN signed_transaction SET COMPRESSION lz4, ALTER COLUMN payload SET COMPRESSION lz4
;

ALTER TABLE {{schema}}.app_transactions
    ALTER COLUMN signed_app_transaction SET COMPRESSION lz4, ALTER COLUMN payload SET COMPRESSION lz4
;
