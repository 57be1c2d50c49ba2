import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import {
  licenceCertificateSchema,
  licenceKeySetSchema,
} from '#server/licensing/licence-certificates/licence-certificate-contract.ts';
import { generateEd25519PrivateKeyPem } from '#server/platform/crypto/signing-keys.ts';
import { verifyLicenceCertificate } from '#server/licensing/licence-certificates/verify-licence-certificate.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets, type TestDatabaseTarget } from '../support/databases.ts';
import { createLicence, orgId, postJson } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const start = new Date('2026-01-15T10:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const at = (ms: number) => new Date(start.getTime() + ms);
/** Certificates are issued for one org and product (decision 151); these tests use one org. */
const scope = { orgId: orgId(1), productId: siteConfig.productId };

/**
 * A key rotation as a rolling deploy does it: an instance with the old key, then one with the new
 * key on the same database. Certificates of the old key must keep verifying (decision 087).
 */
describe.each(databaseTargets)('signing key rotation on $name', (target) => {
  let handle: DatabaseHandle;
  let shared: TestDatabaseTarget;
  let before: TestApp;
  const env = { LICENSE_VALIDATION_CACHE_SECONDS: '0' };
  const oldPem = generateEd25519PrivateKeyPem();
  const newPem = generateEd25519PrivateKeyPem();

  beforeAll(async () => {
    handle = await target.open();
    shared = {
      name: target.name,
      open: async () => ({ ...handle, close: async () => undefined }),
    };
    before = await createTestApp(shared, {
      now: start,
      env: { ...env, LICENSE_SIGNING_KEY: oldPem },
    });
  });
  afterAll(() => handle.close());

  async function certificateFrom(t: TestApp, key: string) {
    const res = await postJson(t, '/account/v1/licenses/validate', {
      licenseKey: key,
      productId: siteConfig.productId,
      orgId: scope.orgId,
    });
    const answer: unknown = await res.json();
    if (typeof answer !== 'object' || answer === null || !('certificate' in answer)) {
      throw new Error('no certificate');
    }
    return licenceCertificateSchema.parse(answer.certificate);
  }

  async function keySetOf(t: TestApp) {
    const res = await t.app.request('/account/v1/.well-known/jwks.json');
    expect(res.status).toBe(200);
    return licenceKeySetSchema.parse(await res.json());
  }

  it('publishes the retired key while its certificates can be valid, then drops it', async () => {
    const { key } = await createLicence(before, {
      expiresAt: new Date(start.getTime() + 365 * DAY),
    });
    const oldCertificate = await certificateFrom(before, key);
    before.setNow(at(10 * MINUTE));
    expect((await keySetOf(before)).keys.map((jwk) => jwk.kid)).toEqual([oldCertificate.keyId]);

    // Ten minutes later an instance with the new key starts on the same database.
    const after = await createTestApp(shared, {
      now: at(10 * MINUTE),
      env: { ...env, LICENSE_SIGNING_KEY: newPem },
    });
    const newCertificate = await certificateFrom(after, key);
    const [oldKeyId, newKeyId] = [oldCertificate.keyId, newCertificate.keyId];
    expect(oldKeyId).not.toBe(newKeyId);

    // The new instance publishes its key first and the retired one after it.
    const rotated = await keySetOf(after);
    expect(rotated.keys.map((jwk) => jwk.kid)).toEqual([newKeyId, oldKeyId]);
    expect(verifyLicenceCertificate(oldCertificate, rotated, scope, at(11 * MINUTE)).ok).toBe(true);
    expect(verifyLicenceCertificate(newCertificate, rotated, scope, at(11 * MINUTE)).ok).toBe(true);

    // An old instance still running during the deploy picks the new key up within a minute.
    before.setNow(at(10 * MINUTE + 30_000));
    expect((await keySetOf(before)).keys.map((jwk) => jwk.kid)).toEqual([oldKeyId]);
    before.setNow(at(11 * MINUTE + 1));
    expect((await keySetOf(before)).keys.map((jwk) => jwk.kid)).toEqual([oldKeyId, newKeyId]);

    // Just before the old certificate ends, the new instance's set still verifies it.
    after.setNow(at(30 * DAY - MINUTE));
    expect(
      verifyLicenceCertificate(oldCertificate, await keySetOf(after), scope, after.deps.clock()).ok,
    ).toBe(true);
    // 31 days after the old key last signed, it is no longer published.
    after.setNow(at(31 * DAY - MINUTE));
    expect((await keySetOf(after)).keys.map((jwk) => jwk.kid)).toEqual([newKeyId, oldKeyId]);
    after.setNow(at(31 * DAY + MINUTE));
    const later = await keySetOf(after);
    expect(later.keys.map((jwk) => jwk.kid)).toEqual([newKeyId]);
    expect(
      verifyLicenceCertificate(oldCertificate, later, scope, after.deps.clock()),
    ).toMatchObject({
      ok: false,
    });
  });
});
