-- A suspension told apart from a revocation (decision 248): both set revoked_at (validations answer
-- DEACTIVATED), but a suspension keeps the access tokens and says so to the customer and the
-- operators. Rows revoked before this are revocations.
alter table licences add column suspended boolean not null default false;

-- The audit log names a suspension as one (decision 224's licence trigger, redefined).
create or replace function audit_licence_change() returns trigger language plpgsql as $$
declare
  v_ignored text[] := array['updated_at', 'next_lifecycle_at', 'key_hash', 'email_normalized'];
  v_before jsonb;
  v_after jsonb;
  v_action text;
begin
  if tg_op = 'UPDATE' then v_before := to_jsonb(old) - v_ignored; end if;
  if tg_op <> 'DELETE' then v_after := to_jsonb(new) - v_ignored; end if;
  if tg_op = 'UPDATE' and v_before = v_after and old.key_hash = new.key_hash then
    return null;
  end if;
  v_action := case
    when tg_op = 'INSERT' then 'licence.created'
    when tg_op = 'DELETE' then 'licence.deleted'
    when old.revoked_at is null and new.revoked_at is not null then
      case when new.suspended then 'licence.suspended' else 'licence.revoked' end
    when old.suspended and not new.suspended and new.revoked_at is not null then 'licence.revoked'
    when old.revoked_at is not null and new.revoked_at is null then 'licence.reinstated'
    when old.key_hash <> new.key_hash then 'licence.key_replaced'
    when old.type <> new.type then 'licence.converted'
    when old.status <> new.status then 'licence.' || case new.status
      when 'Deactivated' then 'deactivated'
      when 'Active' then 'activated'
      when 'Cancelled' then 'cancelled'
      else lower(new.status) end
    when old.edition <> new.edition or old.quantity <> new.quantity then 'licence.plan_changed'
    when old.expires_at is distinct from new.expires_at then 'licence.expiry_changed'
    else 'licence.updated'
  end;
  perform audit_append(v_action, 'licence', coalesce(new.id, old.id)::text, new.email, v_before, v_after);
  return null;
end
$$;
