-- job claims held by their worker
--
-- A claim names its worker, which renews the claim's lease while it runs the job (and hands it back when it stops).

ALTER TABLE storegate.jobs ADD COLUMN claimed_by uuid
;
