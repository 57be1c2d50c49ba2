-- Downloads a security team can verify (decisions 140 and 141). The public halves of the keys
-- that signed a release's SHA256SUMS, kept for good so a rotation leaves every older release
-- verifiable with the key that signed it; private keys are never stored here.
create table release_signing_keys (
  key_id text primary key,
  public_key_pem text not null,
  first_used_at timestamptz not null
);

-- Which key signed which release, and when: the detached Ed25519 signature of the release's
-- SHA256SUMS (built from its artifacts, which never change). Null until signed: releases
-- published before this migration are signed by the first instance that starts or reads them.
alter table releases add column sha256sums_signature text;
alter table releases add column signing_key_id text references release_signing_keys (key_id);
alter table releases add column signed_at timestamptz;

-- A release's CycloneDX SBOM, as the publisher gave it (bytes kept, so it is served unchanged);
-- in a table of its own so listing the catalog never reads documents of megabytes.
create table release_sboms (
  release_id integer primary key references releases (id) on delete cascade,
  document text not null,
  sha256 text not null,
  added_at timestamptz not null default now()
);
