-- webhook deliveries reference nothing outside the tenant's schema
--
-- A tenant's tables reference only its own, so its schema can be placed on any node (Citus
-- schema-based sharding). Deleting an endpoint deletes its deliveries (WebhookEndpointRepository), and
-- events are made due at endpoints they hold a key share lock on (EventRepository), as the foreign key
-- did. Schemas whose migration 12 still made the foreign key lose it here.

ALTER TABLE {{schema}}.webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_endpoint_id_fkey
;
