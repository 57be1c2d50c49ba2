-- Provider events already applied. The primary key turns a redelivery into a no-op; the row is
-- written in the same transaction as the event's effect (decision 061).
create table payment_events (
  provider text not null check (provider in ('stripe', 'local')),
  event_id text not null,
  type text not null,
  subscription_id text,
  processed_at timestamptz not null default now(),
  primary key (provider, event_id)
);
-- Each subscription as last read from its provider, and the licence it pays for. The previous
-- state decides which e-mails a change causes; snapshot_read_at keeps an older read from
-- overwriting a newer one when deliveries race.
create table subscriptions (
  provider text not null check (provider in ('stripe', 'local')),
  subscription_id text not null,
  licence_id uuid references licences (id) on delete set null,
  -- How the licence came to this subscription: a new key, or a converted trial keeping its key.
  licence_origin text check (licence_origin in ('issued', 'converted')),
  customer_id text not null,
  status text not null,
  edition text not null check (edition in ('Starter', 'Pro', 'Enterprise')),
  quantity integer not null check (quantity > 0),
  billing_period text not null check (billing_period in ('monthly', 'yearly')),
  currency text not null check (currency in ('USD', 'EUR')),
  current_period_end timestamptz not null,
  cancel_at_period_end boolean not null,
  ended_at timestamptz,
  ended_for_non_payment boolean not null default false,
  snapshot_read_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (provider, subscription_id)
);
create index subscriptions_licence_id_idx on subscriptions (licence_id);
create index subscriptions_customer_id_idx on subscriptions (customer_id);
