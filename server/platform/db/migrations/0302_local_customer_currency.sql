-- A local customer bills in one currency, as a Stripe customer does (decision 093): a buyer who
-- pays in USD and later in EUR has two customers, each with its own card and billing portal.
alter table local_customers add column currency text check (currency in ('USD', 'EUR'));
-- Existing customers take the currency of their first subscription.
update local_customers
set currency = coalesce(
  (select s.currency from local_subscriptions s where s.customer_id = local_customers.id
   order by s.created_at limit 1),
  'USD'
);
alter table local_customers alter column currency set not null;
alter table local_customers drop constraint local_customers_email_normalized_key;
alter table local_customers
  add constraint local_customers_email_currency_key unique (email_normalized, currency);
