-- Refunds from the operator console (issue 41, decision 233). Every refund asked for in the
-- console is a row: one above `REFUND_APPROVAL_ABOVE` waits (`pending`) for a second operator
-- with `refund.approve`, who approves it (`refunding`, then `refunded`) or rejects it with a
-- reason; one at or below it goes straight to `refunding`. `failed`: the provider refused it when
-- it ran (another refund took the rest meanwhile). The refund itself is decision 220's: a credit
-- note, idempotent by document, amount and reason.
create table refund_requests (
  id uuid primary key default gen_random_uuid(),
  -- The invoice or receipt as the refund names it: ours (INV-…) or the provider's number.
  reference text not null,
  -- Gross, in the document's currency, fixed when asked (the rest at that moment, if so).
  amount_minor bigint not null check (amount_minor > 0),
  currency text not null check (currency in ('EUR', 'USD')),
  -- Asked for "the rest" rather than an amount.
  whole_rest boolean not null,
  reason text not null,
  -- The form's document, amount and reason: the same form sent twice is one request.
  idempotency_key text not null,
  status text not null
    check (status in ('pending', 'refunding', 'refunded', 'rejected', 'failed')),
  requested_by text not null,
  requested_at timestamptz not null,
  reviewed_by text,
  reviewed_at timestamptz,
  rejection_reason text,
  failure text,
  credit_note_number text,
  ended_subscription text,
  refunded_at timestamptz
);
-- One live request per form: a rejected or failed one may be asked for again.
create unique index refund_requests_idempotency_key_idx on refund_requests (idempotency_key)
  where status not in ('rejected', 'failed');
create index refund_requests_pending_idx on refund_requests (requested_at)
  where status = 'pending';
create index refund_requests_requested_at_idx on refund_requests (requested_at);

create trigger refund_requests_audit after insert or update or delete on refund_requests
  for each row execute function audit_record_change('refund_request', 'id', '', '');
