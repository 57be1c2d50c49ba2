-- Wakes every instance's outbox worker when e-mails are queued (decision 238): one NOTIFY per
-- inserting statement, whichever process queued them (a web request, a job, the admin CLI), so the
-- workers poll only as a slow fallback instead of every second.
create or replace function notify_email_outbox() returns trigger language plpgsql as $$
begin
  perform pg_notify('email_outbox', '');
  return null;
end
$$;
create trigger email_outbox_queued after insert on email_outbox
  for each statement execute function notify_email_outbox();
