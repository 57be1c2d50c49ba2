import { createPublicKey, verify } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.ts';
import {
  licenceCertificatePayloadSchema,
  licenceCertificateSchema,
  type LicenceCertificatePayload,
  type LicenceKeySet,
} from './licence-certificate-contract.ts';

export type CertificateCheck =
  | { ok: true; payload: LicenceCertificatePayload }
  | {
      ok: false;
      code:
        | 'MALFORMED'
        | 'UNKNOWN_KEY'
        | 'BAD_SIGNATURE'
        | 'OTHER_ORG'
        | 'OTHER_PRODUCT'
        | 'NOT_YET_VALID'
        | 'EXPIRED';
    };

/** What the CLI is working on: a certificate counts only for this org and this product. */
export interface CertificateScope {
  /** The Salesforce org id (15 or 18 characters) the tool works on. */
  orgId: string;
  productId: string;
}

/** Tolerated clock difference between the signer and the verifier. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The envelope with the payload kept exactly as received: the signature covers every member. */
const envelopeSchema = licenceCertificateSchema.extend({
  payload: z.record(z.string(), z.unknown()),
});

/** Salesforce ids: the first 15 characters name the org (case matters); 3 more add a checksum. */
function sameOrg(certified: string, workingOn: string): boolean {
  return workingOn.length >= 15 && certified.slice(0, 15) === workingOn.slice(0, 15);
}

/**
 * Checks a certificate the way the CLI does: key, signature over the canonical JSON of the payload
 * as received, payload shape, the org and product it was issued for (decision 151), then the
 * validity window.
 */
export function verifyLicenceCertificate(
  certificate: unknown,
  keySet: LicenceKeySet,
  scope: CertificateScope,
  now: Date,
): CertificateCheck {
  const envelope = envelopeSchema.safeParse(certificate);
  if (!envelope.success) return { ok: false, code: 'MALFORMED' };
  const { payload, signature, keyId } = envelope.data;
  const jwk = keySet.keys.find((key) => key.kid === keyId);
  if (!jwk) return { ok: false, code: 'UNKNOWN_KEY' };
  const publicKey = createPublicKey({
    key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    format: 'jwk',
  });
  let signed: Buffer;
  try {
    signed = Buffer.from(canonicalJson(payload), 'utf8');
  } catch {
    return { ok: false, code: 'MALFORMED' };
  }
  if (!verify(null, signed, publicKey, Buffer.from(signature, 'base64url'))) {
    return { ok: false, code: 'BAD_SIGNATURE' };
  }
  const statement = licenceCertificatePayloadSchema.safeParse(payload);
  if (!statement.success) return { ok: false, code: 'MALFORMED' };
  const { issuedAt, validUntil, orgId, productId } = statement.data;
  // One certificate stands for one org and one product, never for the licence as a whole.
  if (!sameOrg(orgId, scope.orgId)) return { ok: false, code: 'OTHER_ORG' };
  if (productId !== scope.productId) return { ok: false, code: 'OTHER_PRODUCT' };
  if (Date.parse(issuedAt) - CLOCK_SKEW_MS > now.getTime()) {
    return { ok: false, code: 'NOT_YET_VALID' };
  }
  if (Date.parse(validUntil) <= now.getTime()) return { ok: false, code: 'EXPIRED' };
  return { ok: true, payload: statement.data };
}
