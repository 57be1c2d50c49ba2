-- What a subscription's open invoice still owes (issue 41 item 3, decision 245): Stripe's invoices
-- are not among our documents, so the dashboard's "invoices owed" summed only the local
-- provider's. The mirror keeps the amount with the invoice's number and due date; rows mirrored
-- before this read null until their next snapshot.
alter table subscriptions add column open_invoice_amount_minor bigint;
