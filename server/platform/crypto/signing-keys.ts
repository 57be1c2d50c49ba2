import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import type { Database, Executor } from '../db/database.ts';
import type { SigningKeyPurpose } from '../db/schema.ts';
import { loadOrCreateSecret } from '../secrets.ts';
import { createSigningKeyRepository, type RecordedSigningKey } from './signing-key-repository.ts';

export { signingKeyPurposes, type SigningKeyPurpose } from '../db/schema.ts';

/**
 * The Ed25519 keys that sign licence certificates and releases, one module and one table for both
 * (decision 171). A key is configured in an environment variable or, when none is, generated on
 * first start and kept in `app_state`, so every instance on one database signs with the same key;
 * its public half is recorded in `signing_keys` before it signs anything, so what it signed stays
 * verifiable after a rotation (configuring another key). The purposes never share a key.
 */
export interface Ed25519SigningKey {
  purpose: SigningKeyPurpose;
  /** Names the key: its RFC 7638 thumbprint (certificates) or fingerprint prefix (releases). */
  keyId: string;
  privateKey: KeyObject;
  /** The public key in PEM (SPKI), as recorded and published. */
  publicKeyPem: string;
}

interface PurposeSettings {
  /** The environment variable that configures the key (named in errors). */
  variable: string;
  /** The `app_state` row holding the generated key when none is configured. */
  storedName: string;
  keyId(publicKey: KeyObject): string;
}

const settings: Record<SigningKeyPurpose, PurposeSettings> = {
  'licence-certificate': {
    variable: 'LICENSE_SIGNING_KEY',
    storedName: 'licence_signing_key',
    keyId: jwkThumbprint,
  },
  release: {
    variable: 'RELEASE_SIGNING_KEY',
    storedName: 'release_signing_key',
    // The first 16 hex digits of the fingerprint: names the key in URLs and in the catalog.
    keyId: (publicKey) => publicKeyFingerprint(publicKey).slice(0, 16),
  },
};

/** The environment variable that configures the key for `purpose`. */
export function signingKeyVariable(purpose: SigningKeyPurpose): string {
  return settings[purpose].variable;
}

/** Environment files often carry a PEM on one line with literal `\n` separators. */
function unescapePem(pem: string): string {
  return pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem;
}

/**
 * Parses an Ed25519 private key in PEM; throws a readable error naming `variable` for anything
 * else.
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

/** The fingerprint of a public key: SHA-256 of its DER encoding (SubjectPublicKeyInfo), in hex. */
export function publicKeyFingerprint(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** The public key's `x`: the 32 raw bytes of the Ed25519 key in base64url (RFC 8037). */
export function ed25519PublicX(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new Error('the signing key is not an Ed25519 key');
  }
  return jwk.x;
}

/**
 * The RFC 7638 thumbprint of an Ed25519 public key: SHA-256 (base64url) of its required members in
 * lexicographic order, without whitespace.
 */
function jwkThumbprint(publicKey: KeyObject): string {
  const x = ed25519PublicX(publicKey);
  return createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
}

/** The signing key for `purpose` made from its private key (key id and public key included). */
export function signingKeyFrom(
  purpose: SigningKeyPurpose,
  privateKey: KeyObject,
): Ed25519SigningKey {
  const publicKey = createPublicKey(privateKey);
  return {
    purpose,
    keyId: settings[purpose].keyId(publicKey),
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * The key that signs for `purpose`: `configuredPem` when given, otherwise the one generated on
 * first start and kept in the database. Its use is recorded before it is returned, so it is
 * published before it signs anything.
 */
export async function loadSigningKey(
  db: Database,
  purpose: SigningKeyPurpose,
  configuredPem: string | undefined,
  now: Date = new Date(),
): Promise<Ed25519SigningKey> {
  const { storedName, variable } = settings[purpose];
  const pem = await loadOrCreateSecret(db, storedName, configuredPem, generateEd25519PrivateKeyPem);
  const key = signingKeyFrom(purpose, parseEd25519PrivateKey(pem, variable));
  await recordSigningKeyUse(db, key, now);
  return key;
}

export type { RecordedSigningKey } from './signing-key-repository.ts';

/**
 * Records that `key` signs at `now`: its first use, or a later one (the last use never moves
 * backwards). A key recorded for another purpose is left as it is.
 */
export async function recordSigningKeyUse(
  db: Executor,
  key: Pick<Ed25519SigningKey, 'purpose' | 'keyId' | 'publicKeyPem'>,
  now: Date,
): Promise<void> {
  await createSigningKeyRepository(db).recordUse(key, now);
}

/** The keys of `purpose` that signed after `since`, most recently used first. */
export function signingKeysUsedSince(
  db: Executor,
  purpose: SigningKeyPurpose,
  since: Date,
): Promise<RecordedSigningKey[]> {
  return createSigningKeyRepository(db).usedSince(purpose, since);
}

/** The public key (PEM) of the key of `purpose` named `keyId`, or undefined when none signed. */
export function findSigningKeyPem(
  db: Executor,
  purpose: SigningKeyPurpose,
  keyId: string,
): Promise<string | undefined> {
  return createSigningKeyRepository(db).findPublicKeyPem(purpose, keyId);
}
