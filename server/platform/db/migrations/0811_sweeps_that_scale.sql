-- Sweeps that scale (issue 28, decision 175): each sweep reads only the rows that are due, through
-- an index, instead of walking its table.

-- The licence lifecycle sweep: `next_lifecycle_at` is the earliest time the hourly job may have
-- work on a licence (a lower bound of sweepStep's rules in lifecycle-rules.ts, with margin for
-- month arithmetic; the job still decides exactly). A trigger keeps it on every write, whatever
-- the code path; null = nothing to do until the licence changes. `or replace`: a restore drops
-- the tables, not the function, before it migrates an older backup forward.
alter table licences add column next_lifecycle_at timestamptz;

create or replace function licence_next_lifecycle_at() returns trigger language plpgsql as $$
begin
  new.next_lifecycle_at := case
    when new.deletion_scheduled_at is not null then
      case
        -- A lapsed licence whose subscription is not yet cancelled: retried every run.
        when new.subscription_status is not null
          and new.subscription_status not in ('canceled', 'incomplete_expired')
          then timestamptz '1970-01-01 00:00:00+00'
        else new.deletion_scheduled_at
      end
    when new.status = 'Deactivated' and new.deactivated_at is not null then
      new.deactivated_at + interval '2 months' - interval '3 days'
    when new.status = 'Cancelled' and new.type <> 'Trial' and new.expires_at is not null then
      new.expires_at + interval '2 months' - interval '3 days'
    when new.type = 'Trial' and new.subscription_status is null and new.expires_at is not null then
      new.expires_at + interval '2 months' - interval '3 days'
    when new.status = 'Active' and new.type <> 'Trial' and new.subscription_status is not null
      and new.expires_at is not null then
      new.expires_at + interval '23 hours'
    else null
  end;
  return new;
end
$$;

create trigger licences_next_lifecycle_at
  before insert or update on licences
  for each row execute function licence_next_lifecycle_at();

update licences set id = id;

create index licences_next_lifecycle_idx on licences (next_lifecycle_at)
  where next_lifecycle_at is not null;

-- Overdue invoices, paged by (due date, provider, subscription): replaces 0303's index.
drop index subscriptions_open_invoice_due_idx;
create index subscriptions_open_invoice_due_idx
  on subscriptions (open_invoice_due_at, provider, subscription_id)
  where collection = 'invoice' and open_invoice_due_at is not null;

-- Expired rate-limit counters are deleted in batches through rate_limit_counters_expires_idx (0203).
