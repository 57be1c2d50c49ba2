import { createAccessToken } from '#server/licensing/access-tokens/create-access-token.ts';
import type { TokenCreatedFrom } from '#server/licensing/access-tokens/emails/access-token-created-email.ts';
import { revokeAccessToken } from '#server/licensing/access-tokens/revoke-access-token.ts';
import { issueReplacementKey } from '#server/licensing/licence-recovery/replace-licence-key.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import { attribute, customerActor } from '#server/platform/audit/audit-context.ts';
import type { Database } from '#server/platform/db/database.ts';

export interface KeysAndTokensDeps {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
  accountBaseUrl: string;
  clock: () => Date;
}

/**
 * A licence issued to the signed-in address, or nothing: another address's licence answers as an
 * unknown one (decision 229), and from here on every change is the customer's (decision 224).
 */
async function ownLicence(
  deps: Pick<KeysAndTokensDeps, 'db'>,
  emailNormalized: string,
  licenceId: string,
  reason: string,
): Promise<Licence | undefined> {
  const licence = await createLicenceRepository(deps.db).findById(licenceId);
  if (!licence || licence.emailNormalized !== emailNormalized) return undefined;
  attribute({ actor: customerActor(emailNormalized), reason });
  return licence;
}

export type ReplaceOwnKeyResult =
  | { ok: true; key: string; maskedKey: string; endedTokens: number; keptTokens: number }
  | { ok: false; code: 'LicenceNotFound' | 'KeyChanged' };

/**
 * "Replace the key" (issue 42 item 4, decision 236): the lost-key link's and support's
 * replacement (`issueReplacementKey`, decision 212) — the old key and every access token but the
 * ones named to keep stop at once, and the new key is e-mailed — with the key also answered, to be
 * shown once. Ids in `keepTokenIds` of another licence keep nothing.
 */
export async function replaceOwnKey(
  deps: KeysAndTokensDeps,
  emailNormalized: string,
  input: { licenceId: string; keepTokenIds: readonly string[] },
): Promise<ReplaceOwnKeyResult> {
  const licence = await ownLicence(
    deps,
    emailNormalized,
    input.licenceId,
    'licence page: replace the key',
  );
  if (!licence) return { ok: false, code: 'LicenceNotFound' };
  const replaced = await issueReplacementKey(deps, licence, input.keepTokenIds);
  if (!replaced.ok) return { ok: false, code: 'KeyChanged' };
  return {
    ok: true,
    key: replaced.key,
    maskedKey: `ORGS-…-${replaced.licence.keyHint}`,
    endedTokens: replaced.endedTokens,
    keptTokens: replaced.keptTokens,
  };
}

export type CreateOwnTokenResult =
  | { ok: true; id: string; name: string; hint: string; createdAt: Date; token: string }
  | { ok: false; code: 'LicenceNotFound' | 'AccessTokenLimitReached' };

/**
 * "Create a token": the API's self-service creation (decision 212) — limit, keyed hash, the
 * e-mail that tells the licence's address — with the page's client as where it came from.
 */
export async function createOwnToken(
  deps: KeysAndTokensDeps,
  emailNormalized: string,
  input: { licenceId: string; name: string; from: TokenCreatedFrom },
): Promise<CreateOwnTokenResult> {
  const licence = await ownLicence(
    deps,
    emailNormalized,
    input.licenceId,
    'licence page: create an access token',
  );
  if (!licence) return { ok: false, code: 'LicenceNotFound' };
  const created = await createAccessToken(
    deps,
    { licenceId: licence.id, name: input.name, from: input.from },
    deps.clock(),
  );
  if (!created.ok) {
    return {
      ok: false,
      code: created.code === 'LicenceUnknown' ? 'LicenceNotFound' : 'AccessTokenLimitReached',
    };
  }
  return {
    ok: true,
    id: created.record.id,
    name: created.record.name,
    hint: created.record.tokenHint,
    createdAt: created.record.createdAt,
    token: created.token,
  };
}

export type RevokeOwnTokenResult =
  | { ok: true; id: string; alreadyRevoked: boolean }
  | { ok: false; code: 'LicenceNotFound' | 'AccessTokenNotFound' };

/** "Revoke": a token of the address's own licence only; another licence's token is unknown. */
export async function revokeOwnToken(
  deps: KeysAndTokensDeps,
  emailNormalized: string,
  input: { licenceId: string; tokenId: string },
): Promise<RevokeOwnTokenResult> {
  const licence = await ownLicence(
    deps,
    emailNormalized,
    input.licenceId,
    'licence page: revoke an access token',
  );
  if (!licence) return { ok: false, code: 'LicenceNotFound' };
  const revoked = await revokeAccessToken(
    deps,
    { id: input.tokenId, licenceId: licence.id },
    deps.clock(),
  );
  if (!revoked.ok) return { ok: false, code: 'AccessTokenNotFound' };
  return { ok: true, id: revoked.record.id, alreadyRevoked: revoked.alreadyRevoked };
}
