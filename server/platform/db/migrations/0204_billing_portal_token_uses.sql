-- Billing-portal links are signed tokens; a row here means the token was used (single use).
create table billing_portal_token_uses (
  token_id text primary key,
  used_at timestamptz not null,
  expires_at timestamptz not null
);
