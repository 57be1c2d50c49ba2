import { randomUUID } from 'node:crypto';
import { REPLACE_KEY_PAGE } from '#shared/contracts/licence-recovery.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { AccessTokenOrigin } from '#server/platform/db/schema.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import {
  createKeyReplacementToken,
  KEY_REPLACEMENT_TOKEN_HOURS,
} from '#server/licensing/licence-recovery/key-replacement-token.ts';
import { accessTokenHint, generateAccessToken, hashAccessToken } from './access-token.ts';
import { createAccessTokenRepository, type AccessTokenRecord } from './access-token-repository.ts';
import {
  accessTokenCreatedEmail,
  type TokenCreatedFrom,
} from './emails/access-token-created-email.ts';

/** Active tokens one licence may hold: plenty for CI systems, bounded against abuse. */
export const MAX_ACTIVE_TOKENS_PER_LICENCE = 20;

export type CreateAccessTokenResult =
  | { ok: true; token: string; record: AccessTokenRecord }
  | { ok: false; code: 'AccessTokenLimitReached' | 'LicenceUnknown' };

export interface CreateAccessTokenDeps {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
}

/**
 * Creates an access token for a licence and queues the e-mail that tells the licence's address,
 * in one transaction (decision 212): a token made with a leaked key never goes unnoticed. The
 * token itself is returned here only — it is shown once and stored as a keyed hash. The licence
 * row is locked so the limit holds under races.
 */
export async function createAccessToken(
  deps: CreateAccessTokenDeps,
  input: { licenceId: string; name: string; from: TokenCreatedFrom },
  now: Date,
): Promise<CreateAccessTokenResult> {
  const createdVia: AccessTokenOrigin = input.from.kind;
  return deps.db.transaction(async (tx) => {
    const repository = createAccessTokenRepository(tx);
    const licence = await repository.lockLicence(input.licenceId);
    if (!licence) return { ok: false, code: 'LicenceUnknown' };
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
      createdVia,
      createdAt: now,
    });
    const replaceToken = createKeyReplacementToken(deps.secretKey, licence, now);
    const email = accessTokenCreatedEmail({
      email: licence.email,
      token: { name: record.name, hint: record.tokenHint, createdAt: now },
      keyHint: licence.keyHint,
      from: input.from,
      replaceUrl: `${deps.publicBaseUrl}${REPLACE_KEY_PAGE}?token=${replaceToken}`,
      replaceLinkHours: KEY_REPLACEMENT_TOKEN_HOURS,
      publicBaseUrl: deps.publicBaseUrl,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'access-token-created', to: licence.email },
      now,
    );
    return { ok: true, token, record };
  });
}
