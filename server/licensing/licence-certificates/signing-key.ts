import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import type { Database } from '#server/platform/db/database.ts';
import { loadOrCreateSecret } from '#server/platform/secrets.ts';
import { canonicalJson } from './canonical-json.ts';
import { recordSigningKeyUse } from './key-set.ts';
import type { LicenceSigningKey } from './licence-signing-key.ts';

/** Name of the row in `app_state` holding the generated key when none is configured. */
const STORED_KEY_NAME = 'licence_signing_key';

/** Environment files often carry a PEM on one line with literal `\n` separators. */
function unescapePem(pem: string): string {
  return pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem;
}

/**
 * Parses an Ed25519 private key in PEM; throws a readable error naming `variable` for anything
 * else (the release-signing key is read the same way, decision 140).
 */
export function parseEd25519PrivateKey(pem: string, variable = 'LICENSE_SIGNING_KEY'): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(unescapePem(pem));
  } catch {
    throw new Error(`${variable} is not a readable PEM private key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `${variable} must be an Ed25519 key, not ${key.asymmetricKeyType ?? 'unknown'}`,
    );
  }
  return key;
}

/** True when the text is an Ed25519 private key in PEM (used by the environment check). */
export function isEd25519PrivateKeyPem(pem: string): boolean {
  try {
    parseEd25519PrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/** A fresh Ed25519 private key in PKCS#8 PEM, the form kept in the database and in the variable. */
export function generateEd25519PrivateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** Builds the signing key (with its key id and public JWK) from a private key. */
export function signingKeyFrom(privateKey: KeyObject): LicenceSigningKey {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new Error('the licence signing key is not an Ed25519 key');
  }
  const keyId = createHash('sha256')
    .update(canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }))
    .digest('base64url');
  return {
    keyId,
    privateKey,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: keyId, alg: 'EdDSA', use: 'sig' },
  };
}

/**
 * The key that signs licence certificates: `LICENSE_SIGNING_KEY` when configured, otherwise one
 * generated on first start and kept in the database, so every instance signs with the same key
 * and certificates survive restarts. It is recorded in the published key set before it signs
 * anything (decision 087).
 */
export async function loadLicenceSigningKey(
  db: Database,
  configuredPem: string | undefined,
  now: Date = new Date(),
): Promise<LicenceSigningKey> {
  const pem = await loadOrCreateSecret(
    db,
    STORED_KEY_NAME,
    configuredPem,
    generateEd25519PrivateKeyPem,
  );
  const key = signingKeyFrom(parseEd25519PrivateKey(pem));
  await recordSigningKeyUse(db, key, now);
  return key;
}
