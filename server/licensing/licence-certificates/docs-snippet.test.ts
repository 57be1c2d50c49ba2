import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadCertificateSnippet,
  type CertificateSnippet,
} from '#tests/support/certificate-snippet.ts';
import { canonicalJson } from './canonical-json.ts';
import { issueLicenceCertificate, type CertificateSubject } from './issue-licence-certificate.ts';
import { signingKeyFrom } from './signing-key.ts';

describe('the verification snippet in docs/licence-certificates.md', () => {
  let verifySnippet: CertificateSnippet;
  let dispose: () => Promise<void>;
  const key = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
  const keySet = JSON.parse(JSON.stringify({ keys: [key.publicJwk] }));
  const now = new Date('2026-01-15T10:00:00.000Z');
  const productId = 'orgsmith-cli';
  const orgA = '00D5g000004Xyz1EAC';
  const orgB = '00D5g000004Xyz2EAC';
  const subject: CertificateSubject = {
    licenceId: 'lic_1',
    type: 'Paid',
    edition: 'Pro',
    quantity: 4,
    orgs: 4,
    stacks: 2,
    features: ['rollback', 'support'],
    orgId: orgA,
    productId,
    expiresAt: new Date('2026-03-01T00:00:00.000Z'),
    creditUntil: null,
  };
  /** The certificate as the CLI receives it: JSON from the API. */
  const certificate = JSON.parse(JSON.stringify(issueLicenceCertificate(key, subject, now)));
  const forOrgA = { orgId: orgA, productId };

  beforeAll(async () => {
    ({ verify: verifySnippet, dispose } = await loadCertificateSnippet());
  });
  afterAll(() => dispose());

  it('accepts a real certificate for the org (18 or 15 characters) and product it names', () => {
    expect(verifySnippet(certificate, keySet, forOrgA, now)).toBe(true);
    expect(verifySnippet(certificate, keySet, { orgId: orgA.slice(0, 15), productId }, now)).toBe(
      true,
    );
  });

  it('refuses the certificate of org A while working on org B, or on another product', () => {
    expect(verifySnippet(certificate, keySet, { orgId: orgB, productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: orgB.slice(0, 15), productId }, now)).toBe(
      false,
    );
    // Same letters, other case: another org (15-character ids are case-sensitive).
    const otherCase = `${orgA.slice(0, 11)}x${orgA.slice(12, 15)}`;
    expect(verifySnippet(certificate, keySet, { orgId: otherCase, productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: orgA, productId: 'other-tool' }, now)).toBe(
      false,
    );
  });

  it('refuses when the caller names no org or product', () => {
    expect(verifySnippet(certificate, keySet, undefined, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: '', productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: orgA }, now)).toBe(false);
  });

  it('refuses a genuinely signed certificate that names no org (as issued before decision 151)', () => {
    const payload = { ...certificate.payload, orgId: null };
    const signature = sign(null, Buffer.from(canonicalJson(payload), 'utf8'), key.privateKey);
    const orgless = { payload, signature: signature.toString('base64url'), keyId: key.keyId };
    expect(verifySnippet(orgless, keySet, forOrgA, now)).toBe(false);
    expect(verifySnippet(orgless, keySet, { orgId: orgB, productId }, now)).toBe(false);
  });

  it('rejects a tampered payload, a foreign key and an expired certificate', () => {
    const tampered = structuredClone(certificate);
    tampered.payload.quantity = 100;
    expect(verifySnippet(tampered, keySet, forOrgA, now)).toBe(false);
    const moved = structuredClone(certificate);
    moved.payload.orgId = orgB;
    expect(verifySnippet(moved, keySet, { orgId: orgB, productId }, now)).toBe(false);
    const other = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    expect(
      verifySnippet(certificate, { keys: [{ ...other.publicJwk, kid: key.keyId }] }, forOrgA, now),
    ).toBe(false);
    expect(verifySnippet(certificate, keySet, forOrgA, new Date('2026-03-01T00:00:00.000Z'))).toBe(
      false,
    );
  });
});
