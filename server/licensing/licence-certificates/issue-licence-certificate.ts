import { sign } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import {
  CERTIFICATE_LIFETIME_DAYS,
  CERTIFICATE_VERSION,
  type LicenceCertificate,
  type LicenceCertificatePayload,
} from './licence-certificate-contract.ts';
import type { LicenceSigningKey } from './licence-signing-key.ts';

/** What a certificate states about a licence, taken from a successful validation. */
export interface CertificateSubject {
  licenceId: string;
  type: LicenceCertificatePayload['type'];
  edition: string;
  quantity: number;
  orgs: LicenceCertificatePayload['orgs'];
  stacks: LicenceCertificatePayload['stacks'];
  features: readonly string[];
  /** The canonical org id the validation named: a certificate always covers exactly one org. */
  orgId: string;
  productId: string;
  /** When the licence itself ends; null for licences that do not expire (Starter). */
  expiresAt: Date | null;
  /** The due date of an unpaid invoice: credit given, not paid for, ends there (invariant 9). */
  creditUntil: Date | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Signs a certificate valid until the earliest of the licence expiry, the due date of an unpaid
 * invoice and 30 days from now.
 */
export function issueLicenceCertificate(
  key: LicenceSigningKey,
  subject: CertificateSubject,
  now: Date,
): LicenceCertificate {
  const validUntil = Math.min(
    now.getTime() + CERTIFICATE_LIFETIME_DAYS * DAY_MS,
    subject.expiresAt?.getTime() ?? Infinity,
    subject.creditUntil?.getTime() ?? Infinity,
  );
  const payload: LicenceCertificatePayload = {
    version: CERTIFICATE_VERSION,
    licenceId: subject.licenceId,
    type: subject.type,
    edition: subject.edition,
    quantity: subject.quantity,
    orgs: subject.orgs,
    stacks: subject.stacks,
    features: [...subject.features].sort(),
    orgId: subject.orgId,
    productId: subject.productId,
    issuedAt: now.toISOString(),
    validUntil: new Date(validUntil).toISOString(),
  };
  const signature = sign(null, Buffer.from(canonicalJson(payload), 'utf8'), key.privateKey);
  return { payload, signature: signature.toString('base64url'), keyId: key.keyId };
}
