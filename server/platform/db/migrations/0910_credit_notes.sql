-- Credit notes (decision 220): rows of payment_documents of kind 'credit_note', numbered
-- CN-YYYY-NNNNN in a gap-free series of their own. Each names the invoice or receipt it corrects
-- (credits_number; no foreign key, so the retention job may delete the older invoice first) and
-- holds positive amounts: the document says it is a credit.
alter table payment_documents add column credits_number text;
-- When the money of an invoice arrived (receipts: when they were issued); null while it is owed.
alter table payment_documents add column paid_at timestamptz;
-- The action a credit note answers (a refund or a cancellation): run twice, it makes one.
alter table payment_documents add column idempotency_key text;

create index payment_documents_credits_idx on payment_documents (credits_number)
  where credits_number is not null;
create unique index payment_documents_idempotency_idx on payment_documents (idempotency_key)
  where idempotency_key is not null;
-- One number per series and year: the series is the number's prefix (INV, CN).
create unique index payment_documents_series_sequence_idx
  on payment_documents (split_part(number, '-', 1), year, sequence);

-- Every document issued before this migration that was paid when issued (receipts).
update payment_documents set paid_at = created_at where kind = 'receipt';
update payment_documents set paid_at = ((document #>> '{payment,paidOn}')::date)::timestamptz
  where kind = 'invoice' and document #>> '{payment,paidOn}' is not null;
-- Invoices paid since they were issued: when the local provider recorded the money (a later sync
-- must not take them for a new payment and confirm it again).
update payment_documents d set paid_at = i.paid_at
  from local_invoices i
  where d.kind = 'invoice' and d.paid_at is null and d.provider = 'local'
    and d.provider_invoice_id = i.id and i.status = 'paid' and i.paid_at is not null;

-- A counter per series and year. payment_document_counters (INV only) stays for the release
-- before this one; the new code takes the greater of this counter and the highest number issued,
-- so numbers an older instance gave out during a rolling deploy are never given twice.
create table payment_document_series_counters (
  series text not null,
  year integer not null,
  last_number integer not null,
  primary key (series, year)
);
insert into payment_document_series_counters (series, year, last_number)
  select 'INV', year, last_number from payment_document_counters;

-- The local test provider's credits of an invoice or charge, as Stripe's credit notes: the
-- amount taken off an open invoice, or refunded of a paid one; one per idempotency key.
create table local_credits (
  id text primary key,
  invoice_id text not null,
  amount integer not null check (amount > 0),
  refunded integer not null check (refunded >= 0 and refunded <= amount),
  reason text not null,
  idempotency_key text not null unique,
  created_at timestamptz not null
);
create index local_credits_invoice_idx on local_credits (invoice_id);
-- The retention job deletes them with the invoices, 8 years on (decision 191), by an index.
create index local_credits_created_idx on local_credits (created_at);
