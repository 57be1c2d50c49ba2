import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { SigningKeyDescription } from '#shared/downloads/verification.ts';
import type { Database } from '#server/platform/db/database.ts';
import {
  findSigningKeyPem,
  loadSigningKey,
  parseEd25519PrivateKey,
  publicKeyFingerprint,
  signingKeyFrom,
  signingKeyVariable,
  type Ed25519SigningKey,
} from '#server/platform/crypto/signing-keys.ts';

/**
 * The Ed25519 key that signs releases' SHA256SUMS (purpose `release`): never the licence-signing
 * key (decisions 140 and 171).
 */
export interface ReleaseSigningKey extends Ed25519SigningKey {
  /** The first 16 hex digits of the fingerprint: names the key in URLs and in the catalog. */
  keyId: string;
  /** SHA-256 (hex) of the public key's DER (SubjectPublicKeyInfo), as `openssl pkey -outform DER | sha256sum` prints it. */
  fingerprint: string;
  /** The public key in PEM (SPKI), as published. */
  publicKeyPem: string;
}

export const RELEASE_SIGNING_KEY_VARIABLE = signingKeyVariable('release');

function releaseSigningKeyOf(key: Ed25519SigningKey): ReleaseSigningKey {
  return { ...key, fingerprint: publicKeyFingerprint(createPublicKey(key.privateKey)) };
}

export function releaseSigningKeyFrom(privateKey: KeyObject): ReleaseSigningKey {
  return releaseSigningKeyOf(signingKeyFrom('release', privateKey));
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
  return releaseSigningKeyOf(await loadSigningKey(db, 'release', configuredPem, now));
}

/** Describes a key that signed releases (for the download page), or undefined when unknown. */
export async function describeReleaseSigningKey(
  db: Database,
  current: ReleaseSigningKey,
  keyId: string,
): Promise<SigningKeyDescription | undefined> {
  if (keyId === current.keyId) return { keyId, fingerprint: current.fingerprint, current: true };
  const pem = await findSigningKeyPem(db, 'release', keyId);
  if (!pem) return undefined;
  return { keyId, fingerprint: publicKeyFingerprint(createPublicKey(pem)), current: false };
}
