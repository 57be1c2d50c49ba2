-- The invoice or receipt of every payment the product documents itself (decision 180): numbered
-- INV-YYYY-NNNNN without gaps per calendar year from a counter row taken in the transaction
-- that writes the document, so a rolled-back payment gives its number back. One document per
-- provider invoice (unique), so a replayed event makes none twice. The document is frozen as
-- issued: its figures are stored, never recomputed.
create table payment_document_counters (
  year integer primary key,
  last_number integer not null
);

create table payment_documents (
  number text primary key,
  year integer not null,
  sequence integer not null,
  kind text not null check (kind in ('receipt', 'invoice')),
  provider text not null,
  provider_invoice_id text not null,
  subscription_id text not null,
  buyer_email text not null,
  issued_on date not null,
  currency text not null,
  net_minor bigint not null,
  vat_rate_percent integer not null,
  vat_minor bigint not null,
  gross_minor bigint not null check (gross_minor = net_minor + vat_minor),
  document jsonb not null,
  created_at timestamptz not null,
  unique (year, sequence),
  unique (provider, provider_invoice_id)
);

create index payment_documents_subscription_idx on payment_documents (subscription_id, created_at);

-- The buyer's country of an invoice sent for payment, for the VAT rule (decision 177).
alter table local_invoices add column country text;
