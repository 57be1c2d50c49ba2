import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { SigningKeyDescription } from '#shared/downloads/verification.ts';
import type { Database } from '#server/platform/db/database.ts';
import {
  generateEd25519PrivateKeyPem,
  parseEd25519PrivateKey,
} from '../licence-certificates/signing-key.ts';
import { loadOrCreateSecret } from '#server/platform/secrets.ts';
import { createReleaseSigningKeyRepository } from './release-signing-key-repository.ts';

/** The Ed25519 key that signs releases' SHA256SUMS: never the licence-signing key (decision 140). */
export interface ReleaseSigningKey {
  /** The first 16 hex digits of the fingerprint: names the key in URLs and in the catalog. */
  keyId: string;
  /** SHA-256 (hex) of the public key's DER (SubjectPublicKeyInfo), as `openssl pkey -outform DER | sha256sum` prints it. */
  fingerprint: string;
  /** The public key in PEM (SPKI), as published. */
  publicKeyPem: string;
  privateKey: KeyObject;
}

/** Name of the row in `app_state` holding the generated key when none is configured. */
const STORED_KEY_NAME = 'release_signing_key';
export const RELEASE_SIGNING_KEY_VARIABLE = 'RELEASE_SIGNING_KEY';

/** The fingerprint of a public key: SHA-256 of its DER encoding, in hex. */
export function publicKeyFingerprint(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function releaseSigningKeyFrom(privateKey: KeyObject): ReleaseSigningKey {
  const publicKey = createPublicKey(privateKey);
  const fingerprint = publicKeyFingerprint(publicKey);
  return {
    keyId: fingerprint.slice(0, 16),
    fingerprint,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
  };
}

/** True when the text is an Ed25519 private key in PEM (the environment check). */
export function isReleaseSigningKeyPem(pem: string): boolean {
  try {
    parseEd25519PrivateKey(pem, RELEASE_SIGNING_KEY_VARIABLE);
    return true;
  } catch {
    return false;
  }
}

/** Whether two private keys in PEM are the same key. */
export function isSameSigningKey(pemA: string, pemB: string): boolean {
  const [a, b] = [pemA, pemB].map((pem) =>
    publicKeyFingerprint(
      createPublicKey(parseEd25519PrivateKey(pem, RELEASE_SIGNING_KEY_VARIABLE)),
    ),
  );
  return a === b;
}

/** The raw 64-byte Ed25519 signature of the text's UTF-8 bytes, in base64. */
export function signText(text: string, key: ReleaseSigningKey): string {
  return sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64');
}

/** Whether `signature` (base64) is the signature of `text` by the public key in PEM. */
export function verifyText(text: string, signature: string, publicKeyPem: string): boolean {
  return verify(
    null,
    Buffer.from(text, 'utf8'),
    createPublicKey(publicKeyPem),
    Buffer.from(signature, 'base64'),
  );
}

/**
 * The release-signing key: `RELEASE_SIGNING_KEY` when configured, otherwise one generated on
 * first start and kept in the database (like the licence-signing key, decision 071, but a key of
 * its own). Its public half is recorded before it signs anything, so every release stays
 * verifiable with the key that signed it after a rotation.
 */
export async function loadReleaseSigningKey(
  db: Database,
  configuredPem: string | undefined,
  now: Date = new Date(),
): Promise<ReleaseSigningKey> {
  const pem = await loadOrCreateSecret(
    db,
    STORED_KEY_NAME,
    configuredPem,
    generateEd25519PrivateKeyPem,
  );
  const key = releaseSigningKeyFrom(parseEd25519PrivateKey(pem, RELEASE_SIGNING_KEY_VARIABLE));
  await createReleaseSigningKeyRepository(db).recordKey(key.keyId, key.publicKeyPem, now);
  return key;
}

/** Describes a key that signed releases (for the download page), or undefined when unknown. */
export async function describeReleaseSigningKey(
  db: Database,
  current: ReleaseSigningKey,
  keyId: string,
): Promise<SigningKeyDescription | undefined> {
  if (keyId === current.keyId) return { keyId, fingerprint: current.fingerprint, current: true };
  const pem = await createReleaseSigningKeyRepository(db).findPublicKeyPem(keyId);
  if (!pem) return undefined;
  return { keyId, fingerprint: publicKeyFingerprint(createPublicKey(pem)), current: false };
}
