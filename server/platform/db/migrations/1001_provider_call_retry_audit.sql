-- An operator's retry of a given-up provider call is audited (decisions 224 and 246): the call
-- is due again, and a cancellation reaches the provider on someone's word. The lifecycle's own
-- queueing, attempts and deletions are the system's bookkeeping and are not.
create or replace function audit_provider_call_retry() returns trigger language plpgsql as $$
begin
  perform audit_append(
    'provider_call.retried', 'provider_call', new.id::text, null,
    jsonb_build_object('kind', old.kind, 'subscription_id', old.subscription_id,
      'status', old.status, 'attempts', old.attempts, 'last_error', old.last_error),
    jsonb_build_object('status', new.status, 'attempts', new.attempts,
      'next_attempt_at', new.next_attempt_at));
  return null;
end
$$;

create trigger provider_calls_audit after update on provider_calls
  for each row when (old.status = 'failed' and new.status = 'pending')
  execute function audit_provider_call_retry();
