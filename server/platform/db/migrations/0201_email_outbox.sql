-- Every e-mail is written here in the transaction of the change that causes it; a worker delivers it.
create table email_outbox (
  id bigint generated always as identity primary key,
  kind text not null,
  message_id text not null unique,
  to_address text not null,
  reply_to text,
  subject text not null,
  text_body text,
  html_body text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index email_outbox_due_idx on email_outbox (next_attempt_at) where status = 'pending';
