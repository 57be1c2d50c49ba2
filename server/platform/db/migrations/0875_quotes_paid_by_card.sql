-- A quote paid by card is accepted too (decisions 154, 214): the card checkout remembers the quote
-- it came from, and the quote records how it was accepted. Orders accepted before this were all
-- invoice orders.
alter table local_checkout_sessions add column quote_number text;
alter table local_subscriptions add column quote_number text;
alter table quotes
  add column accepted_by text check (accepted_by in ('invoice', 'card'));
update quotes set accepted_by = 'invoice' where status = 'accepted';
