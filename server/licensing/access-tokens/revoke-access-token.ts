import type { Executor } from '#server/platform/db/database.ts';
import { hashAccessToken, looksLikeAccessToken } from './access-token.ts';
import { createAccessTokenRepository, type AccessTokenRecord } from './access-token-repository.ts';

export type RevokeAccessTokenResult =
  | { ok: true; record: AccessTokenRecord; alreadyRevoked: boolean }
  | { ok: false; code: 'AccessTokenUnknown' };

/** Which token to revoke: the token itself (whoever holds it may revoke it) or its id. */
export type TokenSelector = { token: string } | { id: string; licenceId?: string };

/**
 * Revokes an access token; validations with it answer NOT_FOUND from then on. Revoking a revoked
 * token succeeds again (idempotent), reporting that it already was.
 */
export async function revokeAccessToken(
  deps: { db: Executor; secretKey: string },
  selector: TokenSelector,
  now: Date,
): Promise<RevokeAccessTokenResult> {
  const repository = createAccessTokenRepository(deps.db);
  let record: AccessTokenRecord | undefined;
  if ('token' in selector) {
    if (!looksLikeAccessToken(selector.token)) return { ok: false, code: 'AccessTokenUnknown' };
    record = await repository.findByHash(hashAccessToken(deps.secretKey, selector.token));
  } else {
    record = await repository.findById(selector.id);
    if (record && selector.licenceId && record.licenceId !== selector.licenceId) record = undefined;
  }
  if (!record) return { ok: false, code: 'AccessTokenUnknown' };
  const revoked = await repository.revoke(record.id, now);
  if (revoked) return { ok: true, record: revoked, alreadyRevoked: false };
  return { ok: true, record, alreadyRevoked: true };
}
