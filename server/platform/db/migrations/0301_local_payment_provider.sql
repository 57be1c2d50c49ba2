-- The built-in local payment provider's own records (decision 062): what Stripe would keep for us
-- when no STRIPE_SECRET_KEY is set. Nothing here is read outside server/payments/local/.
create table local_customers (
  id text primary key,
  email text not null,
  email_normalized text not null unique,
  card_brand text,
  card_last4 text,
  -- The test card on file decides every charge: 'succeeds' (4242…) or 'declines' (…0002).
  card_outcome text check (card_outcome in ('succeeds', 'declines')),
  created_at timestamptz not null default now()
);
create table local_checkout_sessions (
  id text primary key,
  checkout_request_id text not null unique,
  status text not null default 'open' check (status in ('open', 'complete', 'expired')),
  edition text not null check (edition in ('Starter', 'Pro', 'Enterprise')),
  quantity integer not null check (quantity > 0),
  billing_period text not null check (billing_period in ('monthly', 'yearly')),
  currency text not null check (currency in ('USD', 'EUR')),
  customer_email text,
  licence_id_to_convert uuid,
  success_url text not null,
  cancel_url text not null,
  customer_id text references local_customers (id),
  subscription_id text,
  expires_at timestamptz not null,
  completed_at timestamptz,
  created_at timestamptz not null default now()
);
create table local_subscriptions (
  id text primary key,
  customer_id text not null references local_customers (id),
  status text not null,
  edition text not null check (edition in ('Starter', 'Pro', 'Enterprise')),
  quantity integer not null check (quantity > 0),
  billing_period text not null check (billing_period in ('monthly', 'yearly')),
  currency text not null check (currency in ('USD', 'EUR')),
  current_period_start timestamptz not null,
  current_period_end timestamptz not null,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamptz,
  ended_at timestamptz,
  ended_for_non_payment boolean not null default false,
  licence_id_to_convert uuid,
  -- Failed attempts to collect the open renewal, and when the next one is due.
  failed_payment_attempts integer not null default 0,
  next_payment_attempt_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index local_subscriptions_due_idx on local_subscriptions (current_period_end)
  where ended_at is null;
create table local_invoices (
  id text primary key,
  subscription_id text not null references local_subscriptions (id),
  status text not null check (status in ('paid', 'open', 'void')),
  -- Minor units (cents), like Stripe; negative lines are proration credits.
  amount integer not null,
  currency text not null check (currency in ('USD', 'EUR')),
  description text not null,
  period_start timestamptz not null,
  period_end timestamptz not null,
  created_at timestamptz not null,
  paid_at timestamptz
);
create index local_invoices_subscription_idx on local_invoices (subscription_id, created_at);
create table local_portal_sessions (
  id text primary key,
  customer_id text not null references local_customers (id),
  return_url text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
