import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  issueLicenceCertificate,
  type CertificateSubject,
} from '#server/licensing/licence-certificates/issue-licence-certificate.ts';
import { signingKeyFrom } from '#server/licensing/licence-certificates/signing-key.ts';
import { verifyLicenceCertificate } from '#server/licensing/licence-certificates/verify-licence-certificate.ts';
import {
  loadCertificateSnippet,
  type CertificateSnippet,
} from '#tests/support/certificate-snippet.ts';

/**
 * Issue 38, the licence-certificate edges (decision 206): the verifier the docs publish to CLI
 * authors accepted a certificate issued after its own clock (the clock was set back, e.g. to keep
 * an expired certificate valid), and told the CLI to fetch the key set again whenever a
 * certificate named a key it lacked, so whoever answered at the account-service URL could add a
 * key of their own. Now it refuses `issuedAt` more than 5 minutes after `now`, and verifies only
 * with the key set the CLI ships.
 */
const productId = 'orgsmith-cli';
const orgId = '00D5g000004Xyz1EAC';
const issuedAt = new Date('2026-03-01T12:00:00.000Z');
const minutes = (count: number) => count * 60 * 1000;
const at = (offsetMs: number) => new Date(issuedAt.getTime() + offsetMs);

const shippedKey = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
const shippedKeySet = JSON.parse(JSON.stringify({ keys: [shippedKey.publicJwk] }));
const subject: CertificateSubject = {
  licenceId: 'lic_clock',
  type: 'Paid',
  edition: 'Pro',
  quantity: 4,
  orgs: 4,
  stacks: 2,
  features: ['rollback'],
  orgId,
  productId,
  expiresAt: new Date('2027-01-01T00:00:00.000Z'),
  creditUntil: null,
};
/** As the CLI receives it: JSON from the API. */
const certificate = JSON.parse(
  JSON.stringify(issueLicenceCertificate(shippedKey, subject, issuedAt)),
);

describe('the verifier published in docs/licence-certificates.md', () => {
  let verify: CertificateSnippet;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ verify, dispose } = await loadCertificateSnippet());
  });
  afterAll(() => dispose());

  it('refuses a certificate issued after its clock, beyond 5 minutes of skew', () => {
    const scope = { orgId, productId };
    // The clock was set back a day, an hour, six minutes: the certificate comes from its future.
    for (const offset of [-minutes(24 * 60), -minutes(60), -minutes(6)]) {
      expect(verify(certificate, shippedKeySet, scope, at(offset)), `${offset} ms`).toBe(false);
    }
    // Clocks a little behind the service's, and every moment of its life, still verify.
    for (const offset of [-minutes(4), 0, minutes(60), minutes(29 * 24 * 60)]) {
      expect(verify(certificate, shippedKeySet, scope, at(offset)), `${offset} ms`).toBe(true);
    }
    // The service's own verifier draws the same line.
    expect(verifyLicenceCertificate(certificate, shippedKeySet, scope, at(-minutes(6)))).toEqual({
      ok: false,
      code: 'NOT_YET_VALID',
    });
  });

  it('verifies only with the key set the CLI ships, never one fetched at run time', async () => {
    const markdown = await readFile('docs/licence-certificates.md', 'utf8');
    const blocks = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    const usage = blocks.filter((block) => block.includes('verifyLicenceCertificate(saved'));
    expect(usage).toHaveLength(1);
    expect(usage[0]).toContain('shippedKeySet');
    expect(usage[0]).not.toMatch(/fetch\s*\(|jwks\.json/);
    // A certificate of a key the CLI does not ship counts for nothing, whatever a server says.
    const strangerKey = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    const forged = JSON.parse(
      JSON.stringify(issueLicenceCertificate(strangerKey, subject, issuedAt)),
    );
    expect(verify(forged, shippedKeySet, { orgId, productId }, at(minutes(1)))).toBe(false);
  });
});
