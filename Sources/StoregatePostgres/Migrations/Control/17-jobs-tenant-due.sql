-- a tenant's due jobs of a kind, oldest first
--
-- A claim takes the oldest due jobs and, for each tenant with a notification among them, that tenant's
-- other due notifications, so that a batch holds several notifications of its tenant when the backlog is
-- spread over many tenants (the oldest 64 are then each another tenant's). This index finds them without
-- reading the rest of the backlog.

CREATE INDEX jobs_tenant_due ON storegate.jobs (tenant_id, kind, due_at)
;
