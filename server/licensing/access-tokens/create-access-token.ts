import { randomUUID } from 'node:crypto';
import type { Database } from '#server/platform/db/database.ts';
import type { AccessTokenOrigin } from '#server/platform/db/schema.ts';
import { accessTokenHint, generateAccessToken, hashAccessToken } from './access-token.ts';
import { createAccessTokenRepository, type AccessTokenRecord } from './access-token-repository.ts';

/** Active tokens one licence may hold: plenty for CI systems, bounded against abuse. */
export const MAX_ACTIVE_TOKENS_PER_LICENCE = 20;

export type CreateAccessTokenResult =
  | { ok: true; token: string; record: AccessTokenRecord }
  | { ok: false; code: 'AccessTokenLimitReached' };

/**
 * Creates an access token for a licence. The token itself is returned here only — it is shown
 * once and stored as a keyed hash. The licence row is locked so the limit holds under races.
 */
export async function createAccessToken(
  deps: { db: Database; secretKey: string },
  input: { licenceId: string; name: string; createdVia: AccessTokenOrigin },
  now: Date,
): Promise<CreateAccessTokenResult> {
  return deps.db.transaction(async (tx) => {
    const repository = createAccessTokenRepository(tx);
    await repository.lockLicence(input.licenceId);
    if ((await repository.countActive(input.licenceId)) >= MAX_ACTIVE_TOKENS_PER_LICENCE) {
      return { ok: false, code: 'AccessTokenLimitReached' };
    }
    const token = generateAccessToken();
    const record = await repository.insert({
      id: randomUUID(),
      licenceId: input.licenceId,
      tokenHash: hashAccessToken(deps.secretKey, token),
      tokenHint: accessTokenHint(token),
      name: input.name,
      createdVia: input.createdVia,
      createdAt: now,
    });
    return { ok: true, token, record };
  });
}
