-- A claimed outbox message carries its own lease instead of a pushed-out next_attempt_at
-- (decision 111): the sender extends it while it works, a restart on the embedded database
-- releases every lease at once, and a dead instance's claims come back when the lease runs out.
alter table email_outbox add column leased_until timestamptz;
