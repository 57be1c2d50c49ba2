-- The retention job deletes invoices and receipts past their statutory period (decisions 180,
-- 191) by issue time, in batches: an index serves its predicate.
create index payment_documents_created_idx on payment_documents (created_at);
