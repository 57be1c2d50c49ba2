-- Licences of every type. Only a keyed hash of the key is kept; the key itself is e-mailed once.
create table licences (
  id uuid primary key,
  type text not null check (type in ('Trial', 'Free', 'Paid')),
  edition text not null check (edition in ('Starter', 'Pro', 'Enterprise')),
  quantity integer not null default 1 check (quantity > 0),
  status text not null default 'Active',
  email text not null,
  email_normalized text not null,
  key_hash text not null unique,
  key_hint text not null,
  product_id text not null,
  referral_code text,
  expires_at timestamptz,
  customer_id text,
  subscription_id text unique,
  subscription_status text,
  deactivated_at timestamptz,
  deletion_scheduled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index licences_email_normalized_idx on licences (email_normalized);
create index licences_customer_id_idx on licences (customer_id);
-- One row per e-mail address that ever held a licence (keyed hash of the normalized address).
-- Kept when the licence is deleted, so the address can never start a second trial.
create table trial_claims (
  email_hash text primary key,
  first_licence_id uuid not null,
  first_licence_type text not null check (first_licence_type in ('Trial', 'Free', 'Paid')),
  claimed_at timestamptz not null default now()
);
-- Referral codes accepted with a trial request; stored upper case, compared case-insensitively.
create table referral_codes (
  code text primary key check (code = upper(code)),
  disabled boolean not null default false,
  note text,
  created_at timestamptz not null default now()
);
