-- Every running instance registers here and renews its row every few seconds (decision 195): the
-- rate limiter divides the share of a limit it may admit before the database has counted it by the
-- instances alive, so a limit's overshoot no longer grows with the instance count.
create table live_instances (
  id text primary key,
  started_at timestamptz not null,
  seen_at timestamptz not null
);

create index live_instances_seen_idx on live_instances (seen_at);
