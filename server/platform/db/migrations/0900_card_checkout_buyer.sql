-- The company a card checkout of the test provider is for (decision 219): its receipt names it,
-- and its VAT follows the one rule from the country, the VAT ID and VIES's confirmation.
alter table local_checkout_sessions add column company_name text;
alter table local_checkout_sessions add column billing_address text;
alter table local_checkout_sessions add column country text;
alter table local_checkout_sessions add column vat_id text;
alter table local_checkout_sessions add column vat_id_confirmation jsonb;
