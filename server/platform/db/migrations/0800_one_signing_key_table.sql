-- One table for the public halves of every Ed25519 signing key, with its purpose (decision 171):
-- licence certificates (was licence_signing_keys, decision 087) and releases' SHA256SUMS (was
-- release_signing_keys, decision 140). Private keys are never stored here; a generated private key
-- stays in app_state as before. Key ids of the two purposes never meet: a certificate key's id is
-- its 43-character RFC 7638 thumbprint, a release key's the first 16 hex digits of its fingerprint.
create table signing_keys (
  key_id text primary key,
  purpose text not null check (purpose in ('licence-certificate', 'release')),
  public_key_pem text not null,
  first_used_at timestamptz not null,
  last_used_at timestamptz not null
);

-- A certificate key was kept as the `x` of its JWK (base64url of the 32-byte public key); as PEM
-- (SPKI) it is the fixed 12-byte Ed25519 prefix and those 32 bytes, in one line of base64: byte for
-- byte what Node writes for the same key, so the key set publishes the same `x` as before.
insert into signing_keys (key_id, purpose, public_key_pem, first_used_at, last_used_at)
select
  key_id,
  'licence-certificate',
  '-----BEGIN PUBLIC KEY-----' || chr(10)
    || encode(
      '\x302a300506032b6570032100'::bytea
        || decode(rpad(translate(public_x, '-_', '+/'), (length(public_x) + 3) / 4 * 4, '='), 'base64'),
      'base64'
    )
    || chr(10) || '-----END PUBLIC KEY-----' || chr(10),
  first_used_at,
  last_used_at
from licence_signing_keys;

-- Release keys were recorded once, at their first use.
insert into signing_keys (key_id, purpose, public_key_pem, first_used_at, last_used_at)
select key_id, 'release', public_key_pem, first_used_at, first_used_at
from release_signing_keys;

alter table releases drop constraint releases_signing_key_id_fkey;
alter table releases
  add constraint releases_signing_key_id_fkey foreign key (signing_key_id) references signing_keys (key_id);

drop table licence_signing_keys;
drop table release_signing_keys;
