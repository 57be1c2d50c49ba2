import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LicenceCertificate, LicenceKeySet } from './licence-certificate-contract.ts';
import { issueLicenceCertificate, type CertificateSubject } from './issue-licence-certificate.ts';
import { signingKeyFrom } from './signing-key.ts';
import { canonicalJson } from './canonical-json.ts';
import { verifyLicenceCertificate, type CertificateScope } from './verify-licence-certificate.ts';

const key = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
const otherKey = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
const keySet: LicenceKeySet = { keys: [key.publicJwk] };
const now = new Date('2026-01-15T10:00:00.000Z');

const subject: CertificateSubject = {
  licenceId: 'lic_123',
  type: 'Paid',
  edition: 'Pro',
  quantity: 6,
  orgs: 6,
  stacks: 2,
  features: ['toolbox', 'rollback', 'testAutomation'],
  orgId: '00D000000000001AAA',
  productId: 'orgsmith-cli',
  expiresAt: new Date('2026-12-31T00:00:00.000Z'),
  creditUntil: null,
};

/** What the CLI works on in these tests: the certificate's own org and product. */
const scope: CertificateScope = { orgId: '00D000000000001AAA', productId: 'orgsmith-cli' };

function clone(certificate: LicenceCertificate): LicenceCertificate {
  return structuredClone(certificate);
}

describe('licence certificates', () => {
  it('signs a payload that verifies with the published key', () => {
    const certificate = issueLicenceCertificate(key, subject, now);
    expect(certificate.keyId).toBe(key.keyId);
    expect(certificate.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(certificate.payload).toEqual({
      version: 1,
      licenceId: 'lic_123',
      type: 'Paid',
      edition: 'Pro',
      quantity: 6,
      orgs: 6,
      stacks: 2,
      features: ['rollback', 'testAutomation', 'toolbox'],
      orgId: '00D000000000001AAA',
      productId: 'orgsmith-cli',
      issuedAt: '2026-01-15T10:00:00.000Z',
      validUntil: '2026-02-14T10:00:00.000Z',
    });
    expect(verifyLicenceCertificate(certificate, keySet, scope, now)).toEqual({
      ok: true,
      payload: certificate.payload,
    });
  });

  it('survives a JSON round trip with keys in another order', () => {
    const certificate = issueLicenceCertificate(key, subject, now);
    const reordered = JSON.parse(
      JSON.stringify({
        keyId: certificate.keyId,
        signature: certificate.signature,
        payload: Object.fromEntries(Object.entries(certificate.payload).reverse()),
      }),
    );
    expect(verifyLicenceCertificate(reordered, keySet, scope, now).ok).toBe(true);
  });

  it('is valid until the licence expiry when that comes before 30 days', () => {
    const expiresAt = new Date('2026-01-20T00:00:00.000Z');
    const certificate = issueLicenceCertificate(key, { ...subject, expiresAt }, now);
    expect(certificate.payload.validUntil).toBe('2026-01-20T00:00:00.000Z');
  });

  it('is valid for 30 days when the licence does not expire', () => {
    const certificate = issueLicenceCertificate(key, { ...subject, expiresAt: null }, now);
    expect(certificate.payload.validUntil).toBe('2026-02-14T10:00:00.000Z');
  });

  it.each([
    ['edition', (c: LicenceCertificate) => (c.payload.edition = 'Enterprise')],
    ['quantity', (c: LicenceCertificate) => (c.payload.quantity = 25)],
    ['orgs', (c: LicenceCertificate) => (c.payload.orgs = 'unlimited')],
    ['stacks', (c: LicenceCertificate) => (c.payload.stacks = 'unlimited')],
    ['features', (c: LicenceCertificate) => c.payload.features.push('branchSwitching')],
    ['validUntil', (c: LicenceCertificate) => (c.payload.validUntil = '2030-01-01T00:00:00.000Z')],
    ['orgId', (c: LicenceCertificate) => (c.payload.orgId = '00D000000000002AAA')],
    ['licenceId', (c: LicenceCertificate) => (c.payload.licenceId = 'lic_999')],
  ])('rejects a certificate whose %s was changed', (_field, tamper) => {
    const certificate = clone(issueLicenceCertificate(key, subject, now));
    tamper(certificate);
    expect(verifyLicenceCertificate(certificate, keySet, scope, now)).toEqual({
      ok: false,
      code: 'BAD_SIGNATURE',
    });
  });

  it('rejects a payload with an added member', () => {
    const certificate = issueLicenceCertificate(key, subject, now);
    const widened = { ...certificate, payload: { ...certificate.payload, unlimited: true } };
    expect(verifyLicenceCertificate(widened, keySet, scope, now)).toMatchObject({
      code: 'BAD_SIGNATURE',
    });
  });

  it('rejects a changed signature', () => {
    const certificate = issueLicenceCertificate(key, subject, now);
    const bytes = Buffer.from(certificate.signature, 'base64url');
    bytes[10] = (bytes[10] ?? 0) ^ 0x01;
    const flipped = { ...certificate, signature: bytes.toString('base64url') };
    expect(verifyLicenceCertificate(flipped, keySet, scope, now)).toMatchObject({
      code: 'BAD_SIGNATURE',
    });
    const padded = { ...certificate, signature: `${certificate.signature}==` };
    expect(verifyLicenceCertificate(padded, keySet, scope, now)).toMatchObject({
      code: 'MALFORMED',
    });
  });

  it('rejects a certificate signed by another key', () => {
    const forged = issueLicenceCertificate(otherKey, subject, now);
    expect(verifyLicenceCertificate(forged, keySet, scope, now)).toMatchObject({
      code: 'UNKNOWN_KEY',
    });
    const claimingOurKey = { ...forged, keyId: key.keyId };
    expect(verifyLicenceCertificate(claimingOurKey, keySet, scope, now)).toMatchObject({
      code: 'BAD_SIGNATURE',
    });
  });

  it('rejects an expired or not yet valid certificate', () => {
    const certificate = issueLicenceCertificate(key, subject, now);
    expect(
      verifyLicenceCertificate(certificate, keySet, scope, new Date('2026-02-14T10:00:00.000Z')),
    ).toEqual({ ok: false, code: 'EXPIRED' });
    expect(
      verifyLicenceCertificate(certificate, keySet, scope, new Date('2026-02-14T09:59:59.000Z')).ok,
    ).toBe(true);
    expect(
      verifyLicenceCertificate(certificate, keySet, scope, new Date('2026-01-15T09:00:00.000Z')),
    ).toEqual({ ok: false, code: 'NOT_YET_VALID' });
  });

  it('accepts the org it names in either length, and refuses any other org or product', () => {
    const certificate = issueLicenceCertificate(key, subject, now);
    const as15 = { ...scope, orgId: '00D000000000001' };
    expect(verifyLicenceCertificate(certificate, keySet, as15, now).ok).toBe(true);
    for (const orgId of ['00D000000000002AAA', '00D000000000002', '00d000000000001', '', '00D']) {
      expect(verifyLicenceCertificate(certificate, keySet, { ...scope, orgId }, now)).toEqual({
        ok: false,
        code: 'OTHER_ORG',
      });
    }
    expect(
      verifyLicenceCertificate(certificate, keySet, { ...scope, productId: 'other-tool' }, now),
    ).toEqual({ ok: false, code: 'OTHER_PRODUCT' });
  });

  it('refuses a genuinely signed certificate that names no org', () => {
    const { payload } = issueLicenceCertificate(key, subject, now);
    const orgless = { ...payload, orgId: null };
    const signature = sign(null, Buffer.from(canonicalJson(orgless), 'utf8'), key.privateKey);
    const certificate = {
      payload: orgless,
      signature: signature.toString('base64url'),
      keyId: key.keyId,
    };
    expect(verifyLicenceCertificate(certificate, keySet, scope, now)).toEqual({
      ok: false,
      code: 'MALFORMED',
    });
  });

  it('rejects things that are not certificates', () => {
    for (const value of [null, 'x', {}, { payload: {}, signature: 'a', keyId: key.keyId }]) {
      expect(verifyLicenceCertificate(value, keySet, scope, now)).toMatchObject({ ok: false });
    }
  });

  it('gives every key its own RFC 7638 key id', () => {
    expect(key.keyId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.keyId).not.toBe(otherKey.keyId);
    expect(signingKeyFrom(key.privateKey).keyId).toBe(key.keyId);
    expect(key.publicJwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      kid: key.keyId,
      alg: 'EdDSA',
      use: 'sig',
    });
  });
});
