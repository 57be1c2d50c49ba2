-- Quotes (decision 142): one row per quote, numbered Q-YYYY-NNNN per year. A quote's numbers
-- come from its year's counter row, raised in the transaction that stores the quote: the row
-- lock makes concurrent quotes wait their turn, and a rolled-back quote gives its number back.
create table quote_number_counters (
  year integer primary key,
  last_number integer not null
);

-- `document` is everything the PDF shows, frozen when the quote was made (seller, buyer, priced
-- lines in cents, tax note), so the PDF reads the same however prices or company facts change.
-- Only a keyed hash of the link token is kept.
create table quotes (
  number text primary key,
  year integer not null,
  sequence integer not null,
  token_hash text not null unique,
  company_name text not null,
  email text not null,
  billing_address text,
  vat_id text,
  purchase_order text,
  edition text not null,
  quantity integer not null,
  billing_period text not null,
  currency text not null,
  total_cents bigint not null,
  quote_date date not null,
  valid_until date not null,
  document jsonb not null,
  created_at timestamptz not null default now(),
  unique (year, sequence)
);

create index quotes_created_at on quotes (created_at);
