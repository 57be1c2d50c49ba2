-- Fixed-window request counters shared by every instance; bucket holds a keyed hash, never an IP or address.
create table rate_limit_counters (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null,
  expires_at timestamptz not null,
  primary key (bucket, window_start)
);
create index rate_limit_counters_expires_idx on rate_limit_counters (expires_at);
