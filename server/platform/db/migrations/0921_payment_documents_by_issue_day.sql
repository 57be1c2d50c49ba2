-- The books list a period's documents by issue day (decision 221): an index serves the range.
create index payment_documents_issued_on_idx on payment_documents (issued_on);
