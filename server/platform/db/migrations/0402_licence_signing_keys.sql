-- Public halves of the keys that signed licence certificates, with the last time an instance
-- signed with each: the key set keeps publishing a retired key while certificates it signed can
-- still be valid (decision 087). Private keys are never stored here.
create table licence_signing_keys (
  key_id text primary key,
  public_x text not null,
  first_used_at timestamptz not null,
  last_used_at timestamptz not null
);
