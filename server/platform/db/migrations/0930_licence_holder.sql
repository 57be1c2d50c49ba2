-- A licence holder address, apart from the billing address (decision 223): the invoice order,
-- the test provider's checkout session and subscription keep the address the licence is made
-- for; the subscription mirror keeps the billing address where it is not the licence's, so the
-- invoice reminders reach the mailbox that pays. Each with its normalized form, generated and
-- indexed (decision 211), so export and erasure find the person under every spelling.
-- contract: nullable columns only, which the previous release's inserts leave empty.
alter table invoice_orders
  add column licence_holder_email text,
  add column licence_holder_email_normalized text
  generated always as (normalize_email_address(licence_holder_email)) stored;
create index invoice_orders_licence_holder_email_normalized_idx
  on invoice_orders (licence_holder_email_normalized)
  where licence_holder_email_normalized is not null;

alter table local_checkout_sessions
  add column licence_holder_email text,
  add column licence_holder_email_normalized text
  generated always as (normalize_email_address(licence_holder_email)) stored;
create index local_checkout_sessions_licence_holder_email_normalized_idx
  on local_checkout_sessions (licence_holder_email_normalized)
  where licence_holder_email_normalized is not null;

alter table local_subscriptions
  add column licence_holder_email text,
  add column licence_holder_email_normalized text
  generated always as (normalize_email_address(licence_holder_email)) stored;
create index local_subscriptions_licence_holder_email_normalized_idx
  on local_subscriptions (licence_holder_email_normalized)
  where licence_holder_email_normalized is not null;

alter table subscriptions
  add column billing_email text,
  add column billing_email_normalized text
  generated always as (normalize_email_address(billing_email)) stored;
create index subscriptions_billing_email_normalized_idx
  on subscriptions (billing_email_normalized)
  where billing_email_normalized is not null;
