-- An outbox message may carry files (the quote PDF on the quote e-mail, decision 181): kept as
-- JSON (name, type, base64 content) beside the bodies, and cleared with them once sent.
alter table email_outbox add column attachments jsonb;
