import type { Executor } from '#server/platform/db/database.ts';
import { findSigningKeyPem } from '#server/platform/crypto/signing-keys.ts';

/**
 * The public halves of the keys that signed releases, kept for good (decision 140), as the
 * download routes read them: the `release` keys of the one signing-key table (decision 171).
 */
export function createReleaseSigningKeyRepository(db: Executor) {
  return {
    findPublicKeyPem(keyId: string): Promise<string | undefined> {
      return findSigningKeyPem(db, 'release', keyId);
    },
  };
}
