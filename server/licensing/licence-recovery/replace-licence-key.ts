import type { Database } from '#server/platform/db/database.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import {
  createAccessTokenRepository,
  type AccessTokenRecord,
} from '#server/licensing/access-tokens/access-token-repository.ts';
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
  | {
      ok: true;
      licence: Licence;
      /** The new key: for the e-mail, and shown once on the licence page (decision 236). */
      key: string;
      endedTokens: number;
      keptTokens: number;
    }
  | { ok: false; code: 'KeyReplacementLinkInvalid' };

/**
 * Replaces a licence's key and queues the e-mail with the new key, in one transaction: either
 * both happen or neither. The old key stops working at once, and so does every access token
 * but those named in `keepTokenIds` (decision 212).
 */
export async function issueReplacementKey(
  deps: ReplaceLicenceKeyDeps,
  licence: Licence,
  keepTokenIds: readonly string[] = [],
): Promise<ReplaceLicenceKeyResult> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const rotated = await rotateLicenceKey(tx, deps.secretKey, licence, now, keepTokenIds);
    if (!rotated) return { ok: false, code: 'KeyReplacementLinkInvalid' };
    const keptTokens = (await createAccessTokenRepository(tx).listActiveForLicence(licence.id))
      .length;
    const email = replacementKeyEmail({
      key: rotated.key,
      email: rotated.licence.email,
      licence: rotated.licence,
      tokens: { ended: rotated.endedTokens, kept: keptTokens },
      publicBaseUrl: deps.publicBaseUrl,
      accountBaseUrl: deps.accountBaseUrl,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'replacement-licence-key', to: rotated.licence.email },
      now,
    );
    return {
      ok: true,
      licence: rotated.licence,
      key: rotated.key,
      endedTokens: rotated.endedTokens,
      keptTokens,
    };
  });
}

/** The licence a lost-key link names, when the link is still good for its current key. */
async function licenceOfLink(
  deps: ReplaceLicenceKeyDeps,
  token: string,
): Promise<Licence | undefined> {
  const read = readKeyReplacementToken(token);
  if (!read) return undefined;
  const licence = await createLicenceRepository(deps.db).findById(read.licenceId);
  if (!licence || !verifyKeyReplacementToken(deps.secretKey, token, licence, deps.clock())) {
    return undefined;
  }
  return licence;
}

/**
 * The access tokens a replacement would end, for the page to offer keeping them by name; the
 * link's holder is the licence's owner, who may see them.
 */
export async function listTokensForReplacement(
  deps: ReplaceLicenceKeyDeps,
  token: string,
): Promise<
  { ok: true; tokens: AccessTokenRecord[] } | { ok: false; code: 'KeyReplacementLinkInvalid' }
> {
  const licence = await licenceOfLink(deps, token);
  if (!licence) return { ok: false, code: 'KeyReplacementLinkInvalid' };
  return {
    ok: true,
    tokens: await createAccessTokenRepository(deps.db).listActiveForLicence(licence.id),
  };
}

/** The lost-key link: checks the token against the licence's current key, then replaces it. */
export async function replaceLicenceKey(
  deps: ReplaceLicenceKeyDeps,
  token: string,
  keepTokenIds: readonly string[] = [],
): Promise<ReplaceLicenceKeyResult> {
  const licence = await licenceOfLink(deps, token);
  if (!licence) return { ok: false, code: 'KeyReplacementLinkInvalid' };
  return issueReplacementKey(deps, licence, keepTokenIds);
}
