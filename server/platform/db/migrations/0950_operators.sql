-- The operator console (issue 40, decision 226): operators, their passkeys, one-time enrolment
-- links, sessions and the passkey ceremonies' challenges.
--
-- Secrets are kept as keyed hashes only (an enrolment link's token, a session's cookie). Every
-- change of an operator or a passkey writes an audit event through `audit_append` (decision 224),
-- attributed to the transaction's actor: `cli:<user>` for `operators invite`, `operator:<id>` in
-- the console. Sessions and challenges are not audited row by row: signing in and out are events
-- the code names itself (`operator.signed_in`, `operator.signed_out`, `operator.sign_in_failed`).

create table operators (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  -- One operator under every spelling of an address (decision 211).
  email_normalized text not null generated always as (normalize_email_address(email)) stored,
  role text not null check (role in ('owner', 'finance', 'support', 'viewer')),
  -- invited: no passkey yet; active: enrolled; disabled: may not sign in, sessions ended.
  status text not null default 'invited' check (status in ('invited', 'active', 'disabled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  disabled_at timestamptz
);
create unique index operators_email_normalized_idx on operators (email_normalized);

create table operator_passkeys (
  -- The credential id as the browser gives it (base64url).
  credential_id text primary key,
  operator_id uuid not null references operators (id) on delete cascade,
  -- The COSE public key, base64url.
  public_key text not null,
  counter bigint not null default 0,
  transports text not null default '',
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index operator_passkeys_operator_idx on operator_passkeys (operator_id);

create table operator_enrolments (
  -- HMAC of the link's token under the instance secret: the table alone opens nothing.
  token_hash text primary key,
  operator_id uuid not null references operators (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- Set when a passkey was enrolled through it (or a newer invitation replaced it): then 410.
  used_at timestamptz
);
create index operator_enrolments_operator_idx on operator_enrolments (operator_id);

create table operator_sessions (
  -- HMAC of the cookie's token.
  token_hash text primary key,
  operator_id uuid not null references operators (id) on delete cascade,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  -- The last passkey check: sign-in or step-up.
  verified_at timestamptz not null
);
create index operator_sessions_operator_idx on operator_sessions (operator_id);

create table operator_challenges (
  id uuid primary key,
  challenge text not null,
  purpose text not null check (purpose in ('enrol', 'sign_in', 'step_up')),
  -- The operator enrolling or stepping up; none for a sign-in (the passkey names them).
  operator_id uuid references operators (id) on delete cascade,
  expires_at timestamptz not null
);
create index operator_challenges_expires_idx on operator_challenges (expires_at);

-- Operators: the action named by what changed.
create or replace function audit_operator_change() returns trigger language plpgsql as $$
declare
  v_ignored text[] := array['updated_at', 'email_normalized'];
  v_before jsonb;
  v_after jsonb;
begin
  if tg_op = 'UPDATE' then v_before := to_jsonb(old) - v_ignored; end if;
  if tg_op <> 'DELETE' then v_after := to_jsonb(new) - v_ignored; end if;
  if tg_op = 'UPDATE' and v_before = v_after then return null; end if;
  perform audit_append(
    case
      when tg_op = 'INSERT' then 'operator.invited'
      when tg_op = 'DELETE' then 'operator.deleted'
      when old.status <> 'disabled' and new.status = 'disabled' then 'operator.disabled'
      when old.status = 'disabled' and new.status <> 'disabled' then 'operator.reinvited'
      when old.status = 'invited' and new.status = 'active' then 'operator.enrolled'
      when old.role <> new.role then 'operator.role_changed'
      else 'operator.updated'
    end,
    'operator', coalesce(new.id, old.id)::text,
    case when tg_op = 'DELETE' then null else new.email end,
    v_before, v_after
  );
  return null;
end
$$;

create trigger operators_audit after insert or update or delete on operators
  for each row execute function audit_operator_change();

-- Passkeys: added and removed (a use, `counter` and `last_used_at`, is no change).
create or replace function audit_operator_passkey_change() returns trigger language plpgsql as $$
declare
  v_operator uuid := coalesce(new.operator_id, old.operator_id);
begin
  if tg_op = 'UPDATE' then return null; end if;
  perform audit_append(
    case when tg_op = 'INSERT' then 'operator.passkey_added' else 'operator.passkey_removed' end,
    'operator', v_operator::text,
    (select email from operators where id = v_operator),
    case when tg_op = 'DELETE' then jsonb_build_object('credential_id', old.credential_id) end,
    case when tg_op = 'INSERT' then jsonb_build_object('credential_id', new.credential_id) end
  );
  return null;
end
$$;

create trigger operator_passkeys_audit after insert or delete on operator_passkeys
  for each row execute function audit_operator_passkey_change();
