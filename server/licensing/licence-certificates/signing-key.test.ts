import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import {
  generateEd25519PrivateKeyPem,
  isEd25519PrivateKeyPem,
  parseEd25519PrivateKey,
} from '#server/platform/crypto/signing-keys.ts';
import { canonicalJson } from './canonical-json.ts';
import { loadLicenceSigningKey, signingKeyFrom } from './signing-key.ts';

describe('licence signing key id', () => {
  it('is the RFC 7638 thumbprint of the public JWK, as certificates name their key', () => {
    const key = signingKeyFrom(parseEd25519PrivateKey(generateEd25519PrivateKeyPem()));
    const { crv, kty, x } = key.publicJwk;
    const thumbprint = createHash('sha256')
      .update(canonicalJson({ crv, kty, x }))
      .digest('base64url');
    expect(key.keyId).toBe(thumbprint);
    expect(key.publicJwk).toEqual({ kty, crv, x, kid: thumbprint, alg: 'EdDSA', use: 'sig' });
    expect(key.purpose).toBe('licence-certificate');
  });
});

describe.each(databaseTargets)('licence signing key on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());

  it('generates a key once and keeps it in the database for every instance', async () => {
    const first = await loadLicenceSigningKey(handle.db, undefined);
    const second = await loadLicenceSigningKey(handle.db, undefined);
    expect(second.keyId).toBe(first.keyId);
    expect(second.publicJwk).toEqual(first.publicJwk);
  });

  it('uses the configured key instead of the stored one', async () => {
    const pem = generateEd25519PrivateKeyPem();
    const stored = await loadLicenceSigningKey(handle.db, undefined);
    const configured = await loadLicenceSigningKey(handle.db, pem);
    expect(configured.keyId).not.toBe(stored.keyId);
    const oneLine = pem.trim().replaceAll('\n', '\\n');
    expect((await loadLicenceSigningKey(handle.db, oneLine)).keyId).toBe(configured.keyId);
  });

  it('refuses keys that are not Ed25519 private keys', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await expect(loadLicenceSigningKey(handle.db, rsa)).rejects.toThrow(/Ed25519/);
    await expect(
      loadLicenceSigningKey(
        handle.db,
        '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----',
      ),
    ).rejects.toThrow(/not a readable PEM/);
    expect(isEd25519PrivateKeyPem(rsa)).toBe(false);
    expect(isEd25519PrivateKeyPem(generateEd25519PrivateKeyPem())).toBe(true);
  });
});
