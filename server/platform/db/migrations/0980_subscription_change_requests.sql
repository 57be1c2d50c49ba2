-- "Request a change" on the licence page (issue 42 item 6, decision 236): a customer whose
-- subscription is paid by invoice asks for more or fewer seats, another plan, or to cancel. The
-- request waits in the console's approvals queue until finance marks it done (after applying the
-- change with the billing operations) or declines it with a reason; the customer is e-mailed
-- either way. One open request per subscription (the partial unique index), so a second is a 409
-- and races cannot make two. Only the normalized address is kept: the answer goes to the
-- licence's own address.
create table subscription_change_requests (
  id uuid primary key,
  provider text not null,
  subscription_id text not null,
  licence_id uuid references licences (id) on delete set null,
  email_normalized text not null,
  kind text not null check (kind in ('seats', 'plan', 'cancel')),
  seats integer check (seats is null or seats between 1 and 1000),
  edition text check (edition is null or edition in ('Starter', 'Pro', 'Enterprise')),
  message text,
  status text not null default 'open' check (status in ('open', 'done', 'declined')),
  created_at timestamptz not null,
  answered_at timestamptz,
  answered_by text,
  answer_reason text
);
create unique index subscription_change_requests_open_idx
  on subscription_change_requests (provider, subscription_id) where status = 'open';
create index subscription_change_requests_status_idx
  on subscription_change_requests (status, created_at);
create index subscription_change_requests_email_idx
  on subscription_change_requests (email_normalized);
create index subscription_change_requests_answered_idx
  on subscription_change_requests (answered_at);

-- Audited like the other records (migration 0940): created, done, declined, deleted.
create trigger subscription_change_requests_audit
  after insert or update or delete on subscription_change_requests
  for each row execute function audit_record_change('change_request', 'id', '', '');
