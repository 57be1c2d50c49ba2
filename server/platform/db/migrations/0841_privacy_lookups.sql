-- Export and erasure (decision 192) find a person's provider events and invoice reminders by
-- their subscriptions.
create index payment_events_subscription_idx on payment_events (subscription_id)
  where subscription_id is not null;
create index invoice_reminders_subscription_idx on invoice_reminders (subscription_id);
