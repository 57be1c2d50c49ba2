-- One row per cluster job (decision 174): the runner on every instance claims a due job with a
-- lease, extends the lease while it runs and records when it ran, how long and how many rows it
-- touched. A dead instance's claim lapses with its lease, so another instance retries within minutes.
create table job_runs (
  name text primary key,
  next_run_at timestamptz not null,
  claimed_by text,
  leased_until timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_duration_ms integer,
  last_rows integer,
  last_error text
);
