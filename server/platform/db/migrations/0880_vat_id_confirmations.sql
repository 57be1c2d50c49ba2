-- VIES's confirmation of the buyer's VAT ID (decision 210): the reverse charge of an invoice sent
-- for payment rests on it, and its consultation number is printed on the invoice.
alter table local_invoices add column vat_id_confirmation jsonb;
