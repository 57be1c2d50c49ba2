import type { AccessTokenRecord } from './access-token-repository.ts';

/** A token as its owner sees it: never the token or its hash. */
export function accessTokenInfo(record: AccessTokenRecord) {
  return {
    id: record.id,
    name: record.name,
    hint: record.tokenHint,
    createdVia: record.createdVia,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}
