-- Invoice orders prove the billing address first (decision 153): an order paid by invoice is kept
-- here until the link e-mailed to its billing address is confirmed; only then are the provider's
-- subscription, its invoice and the licence created. Only a keyed hash of the link token is kept.
create table invoice_orders (
  id text primary key,
  token_hash text not null unique,
  -- pending: waiting for the link; confirming: the provider is being called (one request only);
  -- confirmed: subscription and invoice exist; cancelled: by the buyer's link or an operator.
  status text not null check (status in ('pending', 'confirming', 'confirmed', 'cancelled')),
  billing_email text not null,
  -- licences/normalize-email-address.ts, and its registrable domain (place-invoice-order.ts):
  -- what the one-open-order and the per-domain caps count.
  email_normalized text not null,
  email_domain text not null,
  -- The validated order (shared/contracts/invoice-checkout.ts) without any quote token.
  details jsonb not null,
  quote_number text,
  expires_at timestamptz not null,
  created_at timestamptz not null,
  confirmed_at timestamptz,
  cancelled_at timestamptz,
  cancelled_by text check (cancelled_by in ('buyer', 'operator', 'quote-accepted')),
  provider text check (provider in ('stripe', 'local')),
  subscription_id text,
  invoice_number text
);
create index invoice_orders_email_normalized_idx on invoice_orders (email_normalized);
create index invoice_orders_email_domain_idx on invoice_orders (email_domain);
create index invoice_orders_created_at_idx on invoice_orders (created_at);
