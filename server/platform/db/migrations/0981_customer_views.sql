-- "View as customer" (issue 42 item 7, decision 236): an operator's read-only look at the
-- licence page of an address, for 15 minutes, with a reason. Served on the console's own origin
-- and bound to the operator's console session, never a customer's cookie. Its start and end are
-- audit events (`operator.viewed_as_customer`, `operator.view_as_customer_ended`); `end_kind`
-- says whether the operator ended it or it expired (noted at the operator's next use).
create table customer_views (
  id uuid primary key,
  operator_id uuid not null references operators (id) on delete cascade,
  email_normalized text not null,
  reason text not null,
  started_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz,
  end_kind text check (end_kind is null or end_kind in ('ended', 'expired'))
);
create index customer_views_operator_idx on customer_views (operator_id, started_at);
create index customer_views_email_idx on customer_views (email_normalized);
create index customer_views_expires_idx on customer_views (expires_at);
