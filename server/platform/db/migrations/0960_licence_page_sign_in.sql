-- The customers' licence page (issue 42, decision 229): a sign-in by a code and a link e-mailed to
-- an address that holds a licence, and the one-hour sessions they open. Codes, links and session
-- ids are kept only as keyed hashes (HMAC under the instance secret).
create table licence_page_sign_ins (
  id uuid primary key,
  email_normalized text not null,
  code_hash text not null,
  link_hash text not null unique,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  failed_attempts integer not null default 0,
  used_at timestamptz
);
create index licence_page_sign_ins_email_idx on licence_page_sign_ins (email_normalized, created_at);
create index licence_page_sign_ins_expires_idx on licence_page_sign_ins (expires_at);

create table licence_page_sessions (
  id_hash text primary key,
  email_normalized text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);
create index licence_page_sessions_expires_idx on licence_page_sessions (expires_at);
create index licence_page_sessions_email_idx on licence_page_sessions (email_normalized);
