-- Pay by invoice, net 30 (decision 144): how each subscription is collected, its oldest open
-- invoice as last read from the provider, and the reminders already sent for an invoice.
alter table subscriptions
  add column collection text not null default 'card' check (collection in ('card', 'invoice')),
  add column open_invoice_id text,
  add column open_invoice_number text,
  add column open_invoice_url text,
  add column open_invoice_due_at timestamptz;
create index subscriptions_open_invoice_due_idx on subscriptions (open_invoice_due_at)
  where open_invoice_due_at is not null;
create table invoice_reminders (
  provider text not null check (provider in ('stripe', 'local')),
  invoice_id text not null,
  -- 0: on the due date, 1: a week later (server/invoices/invoice-rules.ts).
  stage integer not null,
  subscription_id text not null,
  sent_at timestamptz not null,
  primary key (provider, invoice_id, stage)
);
-- The local provider's mirror of Stripe's send_invoice subscriptions (decision 145).
alter table local_subscriptions
  add column collection_method text not null default 'charge_automatically'
    check (collection_method in ('charge_automatically', 'send_invoice'));
alter table local_invoices
  add column number text unique,
  add column due_at timestamptz,
  add column company_name text,
  add column billing_email text,
  add column billing_address text,
  add column vat_id text,
  add column po_reference text,
  add column quote_reference text;
