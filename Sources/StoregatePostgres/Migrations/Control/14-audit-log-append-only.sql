-- audit log: read by tenant newest first, and append-only but for its two rewriters

-- audit.list and the console's audit page read a tenant's entries by id, newest first; with a customer,
-- only the entries whose detail names one (most, such as offer signings, name none).
CREATE INDEX audit_log_tenant_newest ON storegate.audit_log (tenant_id, id DESC)
;

CREATE INDEX audit_log_customer ON storegate.audit_log (tenant_id, (detail ->> 'customerId'), id DESC)
WHERE detail ? 'customerId'
;

-- The server's role appends. An UPDATE or DELETE is refused unless its transaction says it is one of the
-- two jobs allowed to rewrite the log (`SET LOCAL storegate.audit_rewrite = 'on'`): retention deleting old
-- entries, and a customer's erasure blanking their id. TRUNCATE is refused always.
CREATE FUNCTION storegate.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        RAISE EXCEPTION 'storegate.audit_log is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF current_setting('storegate.audit_rewrite', true) = 'on' THEN
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'storegate.audit_log is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Only retention and customer erasure rewrite it, after SET LOCAL storegate.audit_rewrite = ''on''.';
END
$$
;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON storegate.audit_log
FOR EACH ROW EXECUTE FUNCTION storegate.audit_log_append_only()
;

CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON storegate.audit_log
FOR EACH STATEMENT EXECUTE FUNCTION storegate.audit_log_append_only()
;
