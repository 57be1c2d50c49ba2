-- A quote is accepted once (decision 154): the invoice order that accepted it claims the row with
-- a conditional update (status open → accepted), so of two orders at the same moment one wins.
-- "expired" is not stored: it follows from valid_until.
alter table quotes
  add column status text not null default 'open' check (status in ('open', 'accepted')),
  add column accepted_at timestamptz,
  add column accepted_order_id text,
  add column accepted_subscription_id text,
  add column accepted_invoice_number text;
