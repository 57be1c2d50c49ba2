-- Messages sent through the contact form; each also goes to the support inbox through the outbox.
create table contact_messages (
  id uuid primary key,
  email text not null,
  name text not null,
  message text not null,
  role text,
  company text,
  created_at timestamptz not null default now()
);
