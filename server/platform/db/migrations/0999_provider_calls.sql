-- Provider calls of the lifecycle sweep as rows (issue 43 item 3, decision 246): the sweep queues
-- "cancel this subscription" or "re-read it" in the transaction that decided it, and the calls are
-- made after, 8 at a time, each claimed with a lease; a failed call is tried again with backoff
-- and given up (status 'failed', kept for the operators) after its last attempt. At most one call
-- of a kind per subscription waits at a time. A call that succeeds is deleted.
create table provider_calls (
  id bigserial primary key,
  kind text not null check (kind in ('cancel', 'resync')),
  subscription_id text not null,
  status text not null default 'pending' check (status in ('pending', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  leased_until timestamptz,
  last_error text,
  created_at timestamptz not null
);
create unique index provider_calls_waiting_idx on provider_calls (kind, subscription_id)
  where status = 'pending';
create index provider_calls_due_idx on provider_calls (next_attempt_at) where status = 'pending';
-- The retention job deletes calls given up 90 days ago (docs/retention.md).
create index provider_calls_failed_idx on provider_calls (next_attempt_at) where status = 'failed';
