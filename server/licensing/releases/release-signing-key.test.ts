import { createHash, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import {
  generateEd25519PrivateKeyPem,
  parseEd25519PrivateKey,
} from '#server/platform/crypto/signing-keys.ts';
import {
  isReleaseSigningKeyPem,
  releaseSigningKeyFrom,
  signText,
  verifyText,
} from './release-signing-key.ts';
import { releaseSha256Sums } from './sign-release.ts';

const keyOf = (pem: string) => releaseSigningKeyFrom(parseEd25519PrivateKey(pem));

describe('release signing', () => {
  it('names a key by its fingerprint: SHA-256 of the public key DER, the first 16 digits as id', () => {
    const key = keyOf(generateEd25519PrivateKeyPem());
    const der = createPublicKey(key.publicKeyPem).export({ type: 'spki', format: 'der' });
    expect(key.fingerprint).toBe(createHash('sha256').update(der).digest('hex'));
    expect(key.keyId).toBe(key.fingerprint.slice(0, 16));
    expect(key.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(keyOf(generateEd25519PrivateKeyPem()).keyId).not.toBe(key.keyId);
  });

  it('signs SHA256SUMS with a raw 64-byte Ed25519 signature that only that text and key verify', () => {
    const key = keyOf(generateEd25519PrivateKeyPem());
    const other = keyOf(generateEd25519PrivateKeyPem());
    const sums = releaseSha256Sums({
      artifacts: [{ fileName: 'orgsmith-3.3.0-win-x64.msi', sha256: 'ab'.repeat(32) }],
    });
    const signature = signText(sums, key);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(verifyText(sums, signature, key.publicKeyPem)).toBe(true);
    expect(verifyText(sums.replace('ab', 'ba'), signature, key.publicKeyPem)).toBe(false);
    expect(verifyText(sums, signature, other.publicKeyPem)).toBe(false);
    // Ed25519 is deterministic: signing again (another instance, a retry) gives the same bytes.
    expect(signText(sums, key)).toBe(signature);
  });

  it('takes RELEASE_SIGNING_KEY only as an Ed25519 PEM of its own, not the licence key', () => {
    const pem = generateEd25519PrivateKeyPem();
    expect(isReleaseSigningKeyPem(pem)).toBe(true);
    expect(isReleaseSigningKeyPem(pem.replaceAll('\n', '\\n'))).toBe(true);
    expect(isReleaseSigningKeyPem('not a key')).toBe(false);
    expect(() => parseEnv({ RELEASE_SIGNING_KEY: 'nope' })).toThrow(/RELEASE_SIGNING_KEY/);
    expect(() => parseEnv({ RELEASE_SIGNING_KEY: pem, LICENSE_SIGNING_KEY: pem })).toThrow(
      /not the same key as LICENSE_SIGNING_KEY/,
    );
    expect(
      parseEnv({ RELEASE_SIGNING_KEY: pem, LICENSE_SIGNING_KEY: generateEd25519PrivateKeyPem() })
        .RELEASE_SIGNING_KEY,
    ).toBe(pem);
  });
});
