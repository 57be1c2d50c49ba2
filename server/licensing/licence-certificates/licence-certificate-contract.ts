import { z } from 'zod';

/** Days a certificate lets the CLI work offline before it must validate again. */
export const CERTIFICATE_LIFETIME_DAYS = 30;
/** Bumped only when the payload's meaning changes; verifiers reject versions they do not know. */
export const CERTIFICATE_VERSION = 1;

/** A count, or `unlimited` (the pricing engine's representation). */
const limitSchema = z.union([z.number().int().min(1), z.literal('unlimited')]);

export const licenceCertificatePayloadSchema = z
  .object({
    version: z.literal(CERTIFICATE_VERSION),
    licenceId: z.string().min(1).describe('Stable id of the licence (not the licence key).'),
    type: z.enum(['Trial', 'Free', 'Paid']),
    edition: z.string().min(1).describe('Edition whose features the licence grants.'),
    quantity: z
      .number()
      .int()
      .min(1)
      .describe('The licence quantity (its size in the price list).'),
    orgs: limitSchema.describe('Salesforce orgs the licence may be used in.'),
    stacks: limitSchema.describe('Stacks the licence covers.'),
    features: z.array(z.string()).describe('Feature flags of the edition, sorted.'),
    orgId: z
      .string()
      .regex(/^00D[A-Za-z0-9]{15}$/)
      .describe(
        'The Salesforce org id (18 characters) the certificate was issued for; it covers that org only.',
      ),
    productId: z
      .string()
      .min(1)
      .describe('The product the certificate covers; it covers no other.'),
    issuedAt: z.iso.datetime().describe('When the certificate was signed (UTC).'),
    validUntil: z.iso
      .datetime()
      .describe('The earlier of the licence expiry and issuedAt + 30 days (UTC).'),
  })
  .meta({ id: 'LicenceCertificatePayload' });

export type LicenceCertificatePayload = z.infer<typeof licenceCertificatePayloadSchema>;

export const licenceCertificateSchema = z
  .object({
    payload: licenceCertificatePayloadSchema,
    signature: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/)
      .describe('Ed25519 signature of the canonical JSON of `payload`, base64url without padding.'),
    keyId: z.string().min(1).describe('`kid` of the signing key in the published key set.'),
  })
  .meta({
    id: 'LicenceCertificate',
    description:
      'A signed statement of what a licence grants in one org for one product, so the CLI can work offline in that org until validUntil.',
  });

export type LicenceCertificate = z.infer<typeof licenceCertificateSchema>;

export const licencePublicJwkSchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().describe('The public key, base64url.'),
    kid: z.string(),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
  })
  .meta({ id: 'LicencePublicJwk' });

export const licenceKeySetSchema = z
  .object({ keys: z.array(licencePublicJwkSchema) })
  .meta({ id: 'LicenceKeySet', description: 'JWK set (RFC 7517) of the licence signing keys.' });

export type LicenceKeySet = z.infer<typeof licenceKeySetSchema>;
