-- One search box for the operator console (issue 40, decision 227): every kind of thing a support
-- request names is found through an index. Company names by prefix, case ignored; a Salesforce org
-- by its canonical 18-character id.
create index licence_orgs_org_id_idx on licence_orgs (org_id);
create index quotes_company_name_prefix_idx on quotes (lower(company_name) text_pattern_ops);
create index invoice_orders_company_name_prefix_idx
  on invoice_orders (lower(details ->> 'companyName') text_pattern_ops);
create index payment_documents_company_name_prefix_idx
  on payment_documents (lower(document -> 'buyer' ->> 'companyName') text_pattern_ops);
create index invoice_orders_invoice_number_idx on invoice_orders (invoice_number)
  where invoice_number is not null;
