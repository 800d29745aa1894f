-- a batch's inbox rows and jobs found by their own keys, not by their tenant
--
-- A batch of notifications is taken from the inbox, and its jobs completed, by a tenant id and a list of
-- keys (`notification_uuid = ANY`, `ref = ANY`). Led by the tenant, these keys' indexes let a generic plan
-- (a statement prepared on its connection, its tenant unknown when planned) search the index by the tenant
-- alone and filter the tenant's rows by the list: in a burst, each batch of 16 read its tenant's whole
-- backlog (10,000 rows: 2.5 ms for the inbox, 4.7 ms for the jobs). Led by the key in the list, the index
-- is searched by the list, whatever the backlog. Nothing reads either table by tenant alone on a hot
-- path (a tenant's waiting notifications, listed or exported, are read from the inbox as a whole).

ALTER TABLE storegate.notification_inbox DROP CONSTRAINT IF EXISTS notification_inbox_pkey
;

ALTER TABLE storegate.notification_inbox ADD CONSTRAINT notification_inbox_pkey PRIMARY KEY (notification_uuid, tenant_id)
;

ALTER TABLE storegate.jobs DROP CONSTRAINT IF EXISTS jobs_tenant_id_kind_ref_key
;

ALTER TABLE storegate.jobs ADD CONSTRAINT jobs_tenant_id_kind_ref_key UNIQUE (ref, kind, tenant_id)
;
