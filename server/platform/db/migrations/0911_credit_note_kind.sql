-- contract: the kind check only widens (the release before this one writes 'receipt' and
-- 'invoice', still allowed), and (year, sequence) gives way to (series, year, sequence) of 0910,
-- which the old code's INV numbers also satisfy: nothing an old instance writes is refused.
alter table payment_documents drop constraint if exists payment_documents_kind_check;
alter table payment_documents add constraint payment_documents_kind_check
  check (kind in ('receipt', 'invoice', 'credit_note'));
alter table payment_documents drop constraint if exists payment_documents_year_sequence_key;
