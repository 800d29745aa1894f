-- refund outcomes replicable as a whole row
--
-- Migration 17 dropped the table's primary key (an outcome found in refund history has no notification
-- UUID), and logical replication needs a replica identity to carry updates and deletes: without one Citus
-- could not move a tenant's schema to another worker (citus_schema_move copies shards by logical
-- replication). The whole row is the identity; the table's rows are written once and rarely changed.

ALTER TABLE {{schema}}.refund_outcomes REPLICA IDENTITY FULL
;
