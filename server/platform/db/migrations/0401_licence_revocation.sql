-- Revocation by an operator (fraud, chargeback, a published key) is its own state, beside the
-- lifecycle status that payment events set: validations answer REVOKED whatever the
-- subscription does, until an operator reinstates the licence (decision 086).
alter table licences add column revoked_at timestamptz;
alter table licences add column revocation_reason text;
