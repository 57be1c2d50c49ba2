-- Retention (decision 191): every predicate the retention job deletes by, and every address an
-- export or erasure looks up (decision 192), is served by an index, so each batch reads only
-- the rows it deletes however large the tables grow.
create index email_outbox_sent_at_idx on email_outbox (sent_at) where status = 'sent';
create index email_outbox_failed_idx on email_outbox (created_at) where status = 'failed';
create index email_outbox_to_address_idx on email_outbox (lower(to_address));
create index email_outbox_reply_to_idx on email_outbox (lower(reply_to)) where reply_to is not null;
create index payment_events_processed_at_idx on payment_events (processed_at);
create index contact_messages_created_at_idx on contact_messages (created_at);
create index contact_messages_email_idx on contact_messages (lower(email));
create index licence_orgs_last_seen_at_idx on licence_orgs (last_seen_at);
create index quotes_email_idx on quotes (lower(email));
create index subscriptions_ended_idx on subscriptions (ended_at) where licence_id is null;
create index invoice_reminders_sent_at_idx on invoice_reminders (sent_at);
create index local_invoices_created_at_idx on local_invoices (created_at);
create index local_subscriptions_ended_idx on local_subscriptions (ended_at) where ended_at is not null;
create index local_customers_email_idx on local_customers (email_normalized);
create index local_checkout_sessions_expires_idx on local_checkout_sessions (expires_at);
create index local_checkout_sessions_email_idx on local_checkout_sessions (lower(customer_email));
create index local_portal_sessions_expires_idx on local_portal_sessions (expires_at);

-- One row per export or erasure (decision 193): the address only as a keyed hash.
create table privacy_requests (
  id uuid primary key,
  kind text not null check (kind in ('export', 'erase')),
  subject_hash text not null,
  dry_run boolean not null default false,
  summary jsonb not null,
  performed_at timestamptz not null
);
create index privacy_requests_performed_at_idx on privacy_requests (performed_at);
create index privacy_requests_subject_idx on privacy_requests (subject_hash);
