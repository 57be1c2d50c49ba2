-- Licence validations per day (issue 41 item 3, decision 244): each instance counts its answers in
-- memory by UTC day and code and adds them here once a minute (and when it stops), so the console's
-- dashboard reads validations per day without a write per validation.
create table validation_days (
  day date not null,
  code text not null,
  answers bigint not null default 0,
  primary key (day, code)
);
