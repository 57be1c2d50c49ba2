-- Invoice orders approved before credit is given (issue 41, decision 230). After its mailbox is
-- confirmed an order may wait (`awaiting_approval`) for finance, who approve it (then the key and
-- the invoice go out as before) or reject it with a reason (`rejected`).
alter table invoice_orders
  add column review_reason text,
  add column review_due_at timestamptz,
  add column reviewed_at timestamptz,
  add column reviewed_by text,
  add column rejection_reason text;
create index invoice_orders_awaiting_idx on invoice_orders (created_at)
  where status = 'awaiting_approval';
-- "Has this company paid us before?": paid documents by the buyer's e-mail domain.
create index payment_documents_paid_buyer_domain_idx
  on payment_documents (split_part(buyer_email_normalized, '@', 2))
  where paid_at is not null;
-- The two new states join the ones the table allows.
-- contract: the check only widens; every status the previous release writes stays allowed.
alter table invoice_orders drop constraint invoice_orders_status_check;
alter table invoice_orders add constraint invoice_orders_status_check
  check (status in ('pending', 'confirming', 'awaiting_approval', 'confirmed', 'rejected', 'cancelled'));
