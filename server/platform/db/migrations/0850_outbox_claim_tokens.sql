-- Every claim of an outbox message carries its own token (decision 194): only the worker holding
-- that claim may record the attempt's outcome, renew or give back the claim. `attempts` alone could
-- not tell two claims apart once an operator's requeue had set it back to 0.
alter table email_outbox add column claim_token uuid;
