import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  licenceCertificateSchema,
  licenceKeySetSchema,
} from '#server/licensing/licence-certificates/licence-certificate-contract.ts';
import { verifyLicenceCertificate } from '#server/licensing/licence-certificates/verify-licence-certificate.ts';
import { normalizeSalesforceOrgId } from '#server/licensing/licence-validation/salesforce-org-id.ts';
import { siteConfig } from '#shared/site-config.ts';
import { loadCertificateSnippet, type CertificateSnippet } from '../support/certificate-snippet.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence, orgId, postJson } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, row 2: a Pro licence for 4 orgs validated orgs 1–4, org 5 got TOO_MANY_ORGS, and the
 * same key without `orgId` got a 30-day certificate naming no org, which the reference verifier
 * accepted in any org. A certificate now covers one org and one product (decision 151).
 */

const VALIDATE = '/account/v1/licenses/validate';
const productId = siteConfig.productId;
const start = new Date('2026-01-15T10:00:00Z');

const answerSchema = z.object({
  valid: z.boolean(),
  code: z.string(),
  detail: z.string(),
  license: z
    .object({ orgs: z.union([z.number(), z.literal('unlimited')]), orgsInUse: z.number() })
    .loose()
    .nullable(),
  certificate: z.unknown().optional(),
});

describe.each(databaseTargets)(
  'a certificate covers one org and one product on $name',
  (target) => {
    let t: TestApp;
    let snippet: { verify: CertificateSnippet; dispose(): Promise<void> };
    beforeAll(async () => {
      // The production default: answers and certificates reused for a few seconds (decision 077).
      t = await createTestApp(target, { now: start });
      snippet = await loadCertificateSnippet();
    });
    afterAll(async () => {
      await snippet.dispose();
      await t.close();
    });

    async function validate(body: Record<string, unknown>, headers: Record<string, string> = {}) {
      const res = await postJson(t, VALIDATE, body, headers);
      expect(res.status).toBe(200);
      return answerSchema.parse(await res.json());
    }

    async function keySet() {
      const res = await t.app.request('/account/v1/.well-known/jwks.json');
      expect(res.status).toBe(200);
      return licenceKeySetSchema.parse(await res.json());
    }

    it('admits orgs 1–4, refuses org 5, and signs nothing for the same key without an org', async () => {
      const { key } = await createLicence(t, { quantity: 4 });
      for (let n = 1; n <= 4; n++) {
        const answer = await validate({ licenseKey: key, productId, orgId: orgId(n) });
        expect(answer).toMatchObject({ valid: true, code: 'VALID' });
        const certificate = licenceCertificateSchema.parse(answer.certificate);
        expect(certificate.payload.orgId).toBe(normalizeSalesforceOrgId(orgId(n)));
        expect(certificate.payload.productId).toBe(productId);
      }
      const fifth = await validate({ licenseKey: key, productId, orgId: orgId(5) });
      expect(fifth).toMatchObject({ valid: false, code: 'TOO_MANY_ORGS' });
      expect(fifth.certificate).toBeUndefined();

      // The dodge: the same key naming no org. The licence's state, but nothing signed.
      const noOrg = await validate({ licenseKey: key, productId });
      expect(noOrg).toMatchObject({
        valid: true,
        code: 'VALID',
        license: { orgs: 4, orgsInUse: 4 },
      });
      expect(noOrg).not.toHaveProperty('certificate');
      expect(noOrg.detail).toMatch(/orgId/);
      // Asked again (answered from the short-lived cache), still nothing signed.
      expect(await validate({ licenseKey: key, productId })).not.toHaveProperty('certificate');
      // And org 5 is still refused afterwards.
      expect((await validate({ licenseKey: key, productId, orgId: orgId(5) })).code).toBe(
        'TOO_MANY_ORGS',
      );
    });

    it('signs nothing without an org through an access token either', async () => {
      const { key } = await createLicence(t, { quantity: 4 });
      const created = await postJson(t, '/account/v1/access-tokens', {
        licenseKey: key,
        name: 'CI',
      });
      expect(created.status).toBe(201);
      const { token } = z
        .object({ token: z.string() })
        .loose()
        .parse(await created.json());
      const bearer = { Authorization: `Bearer ${token}` };
      const noOrg = await validate({ productId }, bearer);
      expect(noOrg).toMatchObject({ valid: true, code: 'VALID' });
      expect(noOrg).not.toHaveProperty('certificate');
      const withOrg = await validate({ productId, orgId: orgId(1) }, bearer);
      expect(licenceCertificateSchema.parse(withOrg.certificate).payload.orgId).toBe(
        normalizeSalesforceOrgId(orgId(1)),
      );
    });

    it('the reference verifier and the server’s refuse org A’s certificate for org B or another product', async () => {
      const { key } = await createLicence(t, { quantity: 4 });
      const [orgA, orgB] = [orgId(11), orgId(12)];
      const answer = await validate({ licenseKey: key, productId, orgId: orgA });
      const certificate: unknown = JSON.parse(JSON.stringify(answer.certificate));
      const keys = await keySet();
      const now = t.deps.clock();

      // The docs' snippet, exactly as published.
      expect(snippet.verify(certificate, keys, { orgId: orgA, productId }, now)).toBe(true);
      expect(snippet.verify(certificate, keys, { orgId: orgB, productId }, now)).toBe(false);
      expect(snippet.verify(certificate, keys, { orgId: orgA, productId: 'other-tool' }, now)).toBe(
        false,
      );
      expect(snippet.verify(certificate, keys, { productId }, now)).toBe(false);

      // The service's own verifier, with reasons.
      expect(verifyLicenceCertificate(certificate, keys, { orgId: orgA, productId }, now).ok).toBe(
        true,
      );
      expect(verifyLicenceCertificate(certificate, keys, { orgId: orgB, productId }, now)).toEqual({
        ok: false,
        code: 'OTHER_ORG',
      });
      expect(
        verifyLicenceCertificate(certificate, keys, { orgId: orgA, productId: 'other-tool' }, now),
      ).toEqual({ ok: false, code: 'OTHER_PRODUCT' });

      // Moving the certificate to org B breaks its signature.
      const moved = licenceCertificateSchema.parse(certificate);
      moved.payload.orgId = normalizeSalesforceOrgId(orgB) ?? orgB;
      expect(snippet.verify(moved, keys, { orgId: orgB, productId }, now)).toBe(false);
      expect(verifyLicenceCertificate(moved, keys, { orgId: orgB, productId }, now)).toEqual({
        ok: false,
        code: 'BAD_SIGNATURE',
      });
    });
  },
);
