-- Resending a delivered e-mail from the console (issue 41, decision 235). A sent message still
-- loses its bodies (decision 052); a copy sealed with the instance secret (AES-256-GCM) is kept
-- until `sealed_until` (14 days), so an operator can send the same content again. A resend is a
-- new row pointing at the one it copies.
alter table email_outbox add column sealed_content text;
alter table email_outbox add column sealed_until timestamptz;
alter table email_outbox add column resent_from bigint references email_outbox (id) on delete set null;
create index email_outbox_sealed_until_idx on email_outbox (sealed_until)
  where sealed_content is not null;
create index email_outbox_resent_from_idx on email_outbox (resent_from) where resent_from is not null;
