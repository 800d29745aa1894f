-- changes to tenants, API keys, apps, app keys and webhooks announced (NOTIFY storegate_changes)

-- The tenant id is in the column the trigger's argument names. An API key's last use is
-- not announced: it is written on the key's first use in each process.
CREATE FUNCTION storegate.announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed record;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    PERFORM pg_notify('storegate_changes', to_jsonb(changed) ->> TG_ARGV[0]);
    RETURN NULL;
END
$$
;

CREATE TRIGGER announce_change AFTER UPDATE OR DELETE ON storegate.tenants
FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('id')
;

CREATE TRIGGER announce_change AFTER UPDATE OF revoked_at, secret_hash, tenant_id OR DELETE ON storegate.api_keys
FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('tenant_id')
;

CREATE TRIGGER announce_change AFTER INSERT OR UPDATE OR DELETE ON storegate.apps
FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('tenant_id')
;

CREATE TRIGGER announce_change AFTER INSERT OR UPDATE OR DELETE ON storegate.app_keys
FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('tenant_id')
;

CREATE TRIGGER announce_change AFTER INSERT OR UPDATE OR DELETE ON storegate.webhooks
FOR EACH ROW EXECUTE FUNCTION storegate.announce_change('tenant_id')
;
