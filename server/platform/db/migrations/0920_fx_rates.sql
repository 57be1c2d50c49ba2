-- Exchange rates to the euro (decision 221): a USD invoice with German VAT states the VAT in EUR
-- at a recorded rate, and the books and the EC Sales List report in EUR. One rate per currency
-- and day, as the ECB publishes its reference rates: units of the currency per 1 EUR. Recorded by
-- an operator (`fx-rates set`) or fetched from the ECB's daily file (`fx-rates fetch`). Documents
-- copy the rate they use when issued, so a later change here changes no issued document.
create table fx_rates (
  currency text not null check (currency ~ '^[A-Z]{3}$' and currency <> 'EUR'),
  rate_on date not null,
  per_eur numeric(18, 6) not null check (per_eur > 0),
  source text not null check (length(source) between 1 and 40),
  recorded_at timestamptz not null,
  recorded_by text not null,
  primary key (currency, rate_on)
);
