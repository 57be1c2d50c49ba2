-- Salesforce orgs that validated a licence: the quota counts them, known orgs keep working.
create table licence_orgs (
  licence_id uuid not null references licences (id) on delete cascade,
  org_id text not null,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  primary key (licence_id, org_id)
);
-- Access tokens stand in for a licence key (CI); only a keyed hash of the token is kept.
create table access_tokens (
  id uuid primary key,
  licence_id uuid not null references licences (id) on delete cascade,
  token_hash text not null unique,
  token_hint text not null,
  name text not null,
  created_via text not null check (created_via in ('self-service', 'operator')),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index access_tokens_licence_id_idx on access_tokens (licence_id);
