import { z } from 'zod';
import * as zm from 'zod/mini';
import { licenceCertificateSchema } from '../licence-certificates/licence-certificate-contract.ts';
import { validationCodes } from '../licences/check-licence.ts';
import { normalizeSalesforceOrgId, readSalesforceOrgId } from './salesforce-org-id.ts';

export const ORG_ID_MESSAGE =
  'orgId must be a Salesforce organization id: 15 or 18 letters and digits starting with 00D.';

/** An 18-character id whose last three characters do not match: the answer says so, and what fits. */
export function orgIdChecksumMessage(expected: string): string {
  return `orgId has a wrong checksum: its last three characters must follow from the case of the first 15, which make ${expected}. Check the id's case, or send its first 15 characters.`;
}

function hasProblem(value: string, reason: 'format' | 'checksum'): boolean {
  const reading = readSalesforceOrgId(value);
  return !reading.ok && reading.reason === reason;
}

function checksumMessageFor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const reading = readSalesforceOrgId(value);
  return !reading.ok && reading.reason === 'checksum'
    ? orgIdChecksumMessage(reading.expected)
    : undefined;
}

/** A Salesforce org id field: 15 or 18 characters, read canonical (18). */
export function orgIdField(description: string) {
  return zm.pipe(
    zm.string({ error: ORG_ID_MESSAGE }).check(
      // One issue each: the shape, else the checksum, which names the id that would fit.
      zm.refine((value) => !hasProblem(value, 'format'), ORG_ID_MESSAGE),
      zm.refine((value) => !hasProblem(value, 'checksum'), {
        error: (issue) => checksumMessageFor(issue.input) ?? ORG_ID_MESSAGE,
      }),
      zm.describe(description),
    ),
    zm.transform((value) => normalizeSalesforceOrgId(value) ?? value),
  );
}

/** The licence key in a body, when no access token is sent as `Authorization: Bearer`. */
export function optionalLicenceKeyField(description: string) {
  return zm.optional(
    zm
      .string({ error: 'licenseKey must be text.' })
      .check(
        zm.trim(),
        zm.minLength(1, 'licenseKey is empty.'),
        zm.maxLength(200, 'licenseKey is too long.'),
        zm.describe(description),
      ),
  );
}

/** `POST /account/v1/licenses/validate`: the key in the body, or an access token as bearer. */
export const validationRequestSchema = zm
  .strictObject({
    licenseKey: optionalLicenceKeyField(
      'The licence key from the licence e-mail; omit it when sending an access token as `Authorization: Bearer`.',
    ),
    productId: zm
      .string({ error: 'productId is required.' })
      .check(
        zm.trim(),
        zm.minLength(1, 'productId is required.'),
        zm.maxLength(100, 'productId is too long.'),
        zm.describe('The product the licence is used with, e.g. orgsmith-cli.'),
      ),
    orgId: zm.optional(
      orgIdField(
        'The Salesforce org id the tool works on (15 or 18 characters, starts with 00D). Without it the answer states the licence but carries no certificate.',
      ),
    ),
  })
  .register(zm.globalRegistry, { id: 'LicenseValidationRequest' });

export type ValidationRequest = zm.output<typeof validationRequestSchema>;

const limitSchema = z.union([z.number().int().min(1), z.literal('unlimited')]);

export const licenceSummarySchema = z
  .object({
    id: z.string(),
    type: z.enum(['Trial', 'Free', 'Paid']),
    edition: z.enum(['Starter', 'Pro', 'Enterprise']),
    quantity: z.number().int(),
    orgs: limitSchema.describe('Salesforce orgs the licence may be used in.'),
    orgsInUse: z
      .number()
      .int()
      .describe('Orgs that validated the licence within the last 30 days.'),
    stacks: limitSchema,
    features: z.array(z.string()).describe('Feature flags of the edition (pricing engine).'),
    expiresAt: z.iso.datetime().nullable().describe('End of the licence; null = no end date.'),
  })
  .meta({ id: 'LicenseSummary' });

export const validationAnswerSchema = z
  .object({
    valid: z.boolean(),
    code: z
      .enum(validationCodes)
      .describe(
        'VALID, or the first failing check in this order: NOT_FOUND, PRODUCT_MISMATCH, PENDING_DELETION, DEACTIVATED, EXPIRED, TOO_MANY_ORGS.',
      ),
    detail: z.string().describe('A sentence for people.'),
    license: licenceSummarySchema
      .nullable()
      .describe('null for NOT_FOUND and PRODUCT_MISMATCH, which reveal nothing about a licence.'),
    certificate: licenceCertificateSchema
      .optional()
      .describe(
        'Present when valid and the request named an orgId: a signed statement the CLI may rely on offline, for that org and product only. While an invoice of the licence is unpaid it ends at the due date, and after that date none is issued until the invoice is paid.',
      ),
  })
  .meta({ id: 'LicenseValidation' });
