import type { Database } from '#server/platform/db/database.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import { readKeyReplacementToken, verifyKeyReplacementToken } from './key-replacement-token.ts';
import { rotateLicenceKey } from './rotate-licence-key.ts';
import { replacementKeyEmail } from './emails/replacement-key-email.ts';

export interface ReplaceLicenceKeyDeps {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
  accountBaseUrl: string;
  clock: () => Date;
}

export type ReplaceLicenceKeyResult =
  { ok: true; licence: Licence } | { ok: false; code: 'KeyReplacementLinkInvalid' };

/**
 * Replaces a licence's key and queues the e-mail with the new key, in one transaction: either
 * both happen or neither. The old key stops working at once.
 */
export async function issueReplacementKey(
  deps: ReplaceLicenceKeyDeps,
  licence: Licence,
): Promise<ReplaceLicenceKeyResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const rotated = await rotateLicenceKey(tx, deps.secretKey, licence, now);
    if (!rotated) return { ok: false, code: 'KeyReplacementLinkInvalid' };
    const email = replacementKeyEmail({
      key: rotated.key,
      email: rotated.licence.email,
      licence: rotated.licence,
      publicBaseUrl: deps.publicBaseUrl,
      accountBaseUrl: deps.accountBaseUrl,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'replacement-licence-key', to: rotated.licence.email },
      now,
    );
    return { ok: true, licence: rotated.licence };
  });
}

/** The lost-key link: checks the token against the licence's current key, then replaces it. */
export async function replaceLicenceKey(
  deps: ReplaceLicenceKeyDeps,
  token: string,
): Promise<ReplaceLicenceKeyResult> {
  const read = readKeyReplacementToken(token);
  if (!read) return { ok: false, code: 'KeyReplacementLinkInvalid' };
  const licence = await createLicenceRepository(deps.db).findById(read.licenceId);
  if (!licence || !verifyKeyReplacementToken(deps.secretKey, token, licence, deps.clock())) {
    return { ok: false, code: 'KeyReplacementLinkInvalid' };
  }
  return issueReplacementKey(deps, licence);
}
