-- Rate-limit counters are a cache (decision 238): not written to the WAL, so a request counted in
-- the database costs no WAL write and no replica or archive traffic. PostgreSQL empties an
-- UNLOGGED table after a crash, which merely restarts the windows then open; backups leave it out.
alter table rate_limit_counters set unlogged;
