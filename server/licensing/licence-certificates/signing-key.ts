import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Database } from '#server/platform/db/database.ts';
import {
  ed25519PublicX,
  loadSigningKey,
  signingKeyFrom as ed25519SigningKeyFrom,
  type Ed25519SigningKey,
} from '#server/platform/crypto/signing-keys.ts';
import type { LicencePublicJwk, LicenceSigningKey } from './licence-signing-key.ts';

/** The public JWK the key set publishes for a key named `keyId`. */
export function licencePublicJwk(keyId: string, publicKey: KeyObject): LicencePublicJwk {
  const x = ed25519PublicX(publicKey);
  return { kty: 'OKP', crv: 'Ed25519', x, kid: keyId, alg: 'EdDSA', use: 'sig' };
}

function licenceSigningKeyOf(key: Ed25519SigningKey): LicenceSigningKey {
  return { ...key, publicJwk: licencePublicJwk(key.keyId, createPublicKey(key.privateKey)) };
}

/** Builds the signing key (with its key id and public JWK) from a private key. */
export function signingKeyFrom(privateKey: KeyObject): LicenceSigningKey {
  return licenceSigningKeyOf(ed25519SigningKeyFrom('licence-certificate', privateKey));
}

/**
 * The key that signs licence certificates: `LICENSE_SIGNING_KEY` when configured, otherwise one
 * generated on first start and kept in the database, so every instance signs with the same key
 * and certificates survive restarts. It is recorded in the published key set before it signs
 * anything (decisions 087 and 171).
 */
export async function loadLicenceSigningKey(
  db: Database,
  configuredPem: string | undefined,
  now: Date = new Date(),
): Promise<LicenceSigningKey> {
  return licenceSigningKeyOf(await loadSigningKey(db, 'licence-certificate', configuredPem, now));
}
